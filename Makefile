# xpmigrate developer tasks. Every target installs nothing outside the Go
# module cache; `make test` is what CI runs.

GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 60s
BENCHTIME ?= 1s

.PHONY: all build test vet bench fuzz demo clean

all: build

build:
	$(GO) build -o bin/xpmigrate ./cmd/xpmigrate

vet:
	$(GO) vet $(PKGS)

test: vet
	$(GO) test -count=1 $(PKGS)

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
	./convert/yamledit:FuzzEncode

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

# The bundled example (testdata/demo, from upbound/configuration-aws-network):
# the legacy composition and its pipeline twin rendered in process, side by
# side, then the equivalence check.
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

clean:
	rm -rf bin
