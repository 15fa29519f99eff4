# xpmigrate developer tasks. Every target installs nothing outside the Go
# module cache; `make test` is what CI runs.

GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 60s
BENCHTIME ?= 1s

.PHONY: all build test vet bench fuzz demo clean docs check-docs cross check-fmt check-tidy test-race lint e2e e2e-scripts e2e-cluster kube-apiserver e2e-crossplane crossplane

all: build

build:
	$(GO) build -o bin/xpmigrate ./cmd/xpmigrate

vet:
	$(GO) vet $(PKGS)

# The unit tier (`go test ./...`, in process, no binary built), then the
# script e2e tier, the race detector and the fuzz targets. The cluster e2e
# tier needs a kube-apiserver build: `make e2e` (CI runs both).
test: vet check-fmt check-tidy check-docs lint
	$(GO) test -count=1 $(PKGS)
	$(MAKE) e2e-scripts
	$(MAKE) test-race
	$(MAKE) fuzz FUZZTIME=$(CI_FUZZTIME) PROPERTY_SEEDS=

# CI runs every fuzz target briefly (crashers found are kept under
# testdata/fuzz/ and fail the run); `make fuzz` runs them longer. CI counts
# executions rather than seconds: with a duration, go test fails a target
# with "context deadline exceeded" when the time runs out while a worker is
# busy (seen on a loaded machine), which says nothing about the code.
CI_FUZZTIME ?= 500x

# The script e2e tier: tests behind the build tag e2e, named TestE2E*: the
# testscript files of e2e/testdata/script (the binary built from this
# checkout run as a user, the GitHub Action, the pre-commit hook or a shell
# would run it) and the HTML report in headless Chromium. Suites that need
# more than every machine has add their tag to E2E_TAGS.
E2E_TAGS ?= e2e
E2E_PKGS := ./e2e/... ./convert/migrate/
e2e-scripts: build
	XPMIGRATE_BIN=$(XPMIGRATE_BIN) $(GO) test -tags '$(E2E_TAGS)' -count=1 -run '^TestE2E' $(E2E_PKGS)

# The e2e tiers run the binary `make build` has just written (build always
# runs go build, which rewrites nothing when bin/xpmigrate is up to date),
# handed to every test package as XPMIGRATE_BIN instead of one build per
# package; internal/testutil.BuildXpmigrate refuses it when a source linked
# into it is newer, and builds its own when XPMIGRATE_BIN is unset (plain
# go test).
XPMIGRATE_BIN := $(CURDIR)/bin/xpmigrate

# gofmt and go mod tidy must have nothing to change.
check-fmt:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

check-tidy:
	$(GO) mod tidy -diff

# The packages that run goroutines (migrate workers, the engine, the
# function pipeline and built-ins, verify, verify --cluster's parallel
# renders and reader, the progress bar), under the race detector; -short
# skips the corpus-wide runs.
RACE_PKGS := ./convert/migrate/ ./render/engine/ ./render/pipeline/ ./render/builtin/... ./render/verify/ ./render/verify/live/ ./internal/cluster/ ./cmd/xpmigrate/
test-race:
	$(GO) test -race -short -count=1 $(RACE_PKGS)

# golangci-lint at the pinned version (.golangci.yml), part of `make test`;
# installed into bin/tools by `make lint` when missing.
GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT := bin/tools/golangci-lint
$(GOLANGCI_LINT):
	GOBIN=$(CURDIR)/bin/tools $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
lint: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run ./...

# The command and diagnostics references under docs/reference are generated
# from the cobra tree and convert.Registry (the hidden `xpmigrate docs`
# command, run by TestReferenceDocs). `make docs` rewrites them; `make
# check-docs` fails when they are stale and lists the pages to regenerate.
docs:
	$(GO) test -count=1 -run '^TestReferenceDocs$$' ./cmd/xpmigrate -args -update

check-docs:
	$(GO) test -count=1 -run '^TestReferenceDocs$$' ./cmd/xpmigrate

# The e2e suite (build tag e2e) runs against a real etcd and kube-apiserver
# on loopback (internal/kubetest). hack/kube-apiserver.sh builds kube-apiserver
# once into a cache outside the repository ($XPMIGRATE_CACHE, default
# ~/.cache/xpmigrate; the first build takes 15-45 minutes on 2 cores) and
# needs etcd (Debian's etcd-server: `hack/kube-apiserver.sh etcd` installs it).
kube-apiserver:
	hack/kube-apiserver.sh build

# The cluster e2e tier: the packages whose e2e tests start etcd and
# kube-apiserver (their few unit tests run again with them; no other
# package's do). A new such package goes here: TestE2EPackagesListed
# (cmd/xpmigrate) fails until it does.
E2E_CLUSTER_PKGS := ./internal/kubetest/ ./internal/cluster/ ./render/verify/live/ ./convert/migrate/v2e2e/ ./convert/migrate/plan/
e2e-cluster: kube-apiserver build
	XPMIGRATE_BIN=$(XPMIGRATE_BIN) $(GO) test -tags e2e -count=1 $(E2E_CLUSTER_PKGS)

# Every e2e test: the scripts, the cluster tier and the real-Crossplane
# tier, not the unit tier.
e2e: e2e-scripts e2e-cluster e2e-crossplane

# The real-Crossplane tier (e2e/crossplane, build tag e2e_crossplane;
# docs/test-tiers.md): Crossplane core v1.20.11 and v2.3.4,
# function-patch-and-transform and kube-controller-manager, built once by
# hack/crossplane.sh into the cache beside kube-apiserver, run as plain
# processes with the test provider and its fake cloud. Part of `make e2e`.
crossplane: kube-apiserver
	hack/crossplane.sh build
e2e-crossplane: crossplane
	$(GO) test -tags e2e_crossplane -count=1 -timeout 45m -v ./e2e/crossplane/

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

# Each fuzz target runs for $(FUZZTIME) (default 60s). `make fuzz FUZZTIME=10s` for a quick pass.
FUZZ_TARGETS := \
	./patchandtransform:FuzzFieldPath \
	./patchandtransform:FuzzTransform \
	./patchandtransform:FuzzApply \
	./patchandtransform/native:FuzzDecode \
	./patchandtransform/function:FuzzDecodeJSON \
	./environment:FuzzLoad \
	./environment:FuzzSpec \
	./environment:FuzzInput \
	./convert:FuzzConvert \
	./convert:FuzzV2XRD \
	./convert/yamledit:FuzzEncode \
	./internal/manifest:FuzzSimpleJSON \
	./convert/yamledit:FuzzTreeJSON \
	./internal/jsonobj:FuzzDecodePlainObject \
	./internal/jsonobj:FuzzDecodeTree \
	./internal/protostruct:FuzzBuilder \
	./internal/manifest:FuzzSplitDocuments \
	./internal/gitignore:FuzzCompilePattern \
	./internal/udiff:FuzzUnifiedDiff \
	./convert/yamledit:FuzzCheckAliases \
	./convert/migrate:FuzzScan \
	./convert/migrate/report:FuzzMarkdownReport \
	./patchandtransform:FuzzCombine \
	./render/engine:FuzzRender \
	./render/verify:FuzzConvertVerify \
	./convert:FuzzConvertV2Steps \
	./convert/migrate/plan:FuzzPlace \
	./internal/shquote:FuzzQuote \
	./internal/markdown:FuzzEscape \
	./internal/logsafe:FuzzEscape

# The nightly equivalence property: TestPropertyConversionsExplained and
# TestPropertyFailureNeverSilent (render/verify) at $(PROPERTY_SEEDS) random
# one-patch Compositions each (about 7 minutes per 50,000 on one core); no
# accepted conversion may be silently different. The unit tier runs them at
# 1,500 (150 under -short); `make test` leaves PROPERTY_SEEDS empty.
PROPERTY_SEEDS ?= 50000

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done
	@if [ -n "$(PROPERTY_SEEDS)" ]; then \
		echo "property tests at $(PROPERTY_SEEDS) seeds (render/verify)"; \
		XPMIGRATE_PROPERTY_SEEDS=$(PROPERTY_SEEDS) $(GO) test -count=1 -timeout 120m -v -run '^TestProperty(ConversionsExplained|FailureNeverSilent)$$' ./render/verify/; \
	fi

# The bundled example (testdata/demo, from upbound/configuration-aws-network):
# the legacy composition and its pipeline twin rendered in process, side by
# side, then the equivalence check; then a copy of the example repository
# (testdata/example-repo) migrated, with its report in bin/demo.
DEMO := testdata/demo
demo: build
	@mkdir -p bin/demo
	./bin/xpmigrate render $(DEMO)/xr.yaml $(DEMO)/composition.yaml --until-stable > bin/demo/legacy.yaml
	./bin/xpmigrate render $(DEMO)/xr.yaml $(DEMO)/composition-pipeline.yaml --until-stable > bin/demo/pipeline.yaml
	@echo "--- side by side: legacy (left) and pipeline (right), first 60 lines"
	@pr -m -t -w 160 bin/demo/legacy.yaml bin/demo/pipeline.yaml | head -60
	@echo "--- diff of the two renders"
	@diff -u bin/demo/legacy.yaml bin/demo/pipeline.yaml || true
	./bin/xpmigrate verify $(DEMO)/composition.yaml --converted $(DEMO)/composition-pipeline.yaml --xr $(DEMO)/xr.yaml
	@echo "--- migrate a copy of the example repository (testdata/example-repo), verifying every conversion"
	@rm -rf bin/demo/example-repo && cp -R testdata/example-repo bin/demo/example-repo
	cd bin/demo/example-repo && ../../xpmigrate migrate --report ../migration-report.html
	@echo "--- HTML report: bin/demo/migration-report.html"

# Release binaries for the six targets of .goreleaser.yaml, without goreleaser:
# bin/cross/xpmigrate_<os>_<arch>[.exe], pure Go (CGO_ENABLED=0), with the
# version and commit linked in as goreleaser does. A cold build cache costs a
# few minutes per target; a warm one, seconds for all six.
CROSS_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
cross:
	@mkdir -p bin/cross
	@set -e; for t in $(CROSS_TARGETS); do \
		os=$${t%%/*}; arch=$${t##*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
		echo "build $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' \
			-o bin/cross/xpmigrate_$${os}_$${arch}$$ext ./cmd/xpmigrate; \
	done

clean:
	rm -rf bin
