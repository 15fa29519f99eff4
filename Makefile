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
	./environment:FuzzInput

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

# The bundled example: a legacy composition from the corpus rendered in process.
demo: build
	./bin/xpmigrate render testdata/demo/xr.yaml testdata/demo/composition.yaml --until-stable

clean:
	rm -rf bin
