# Chain — the two commands of the README, plus the benchmark.
#   make demo   runs the samples against the bundled sample server on loopback
#   make test   runs the whole test suite
# Both install libcurl's headers with apt-get first when they are missing.

SWIFT       ?= swift
# Zero warnings: the build fails on any warning in our Swift code.
STRICT      := -Xswiftc -warnings-as-errors

.PHONY: all deps build test demo bench bench-smoke clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build $(STRICT)

test: deps
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build

demo: deps
	$(SWIFT) build $(STRICT) --product demo
	$(SWIFT) run --skip-build demo

bench: deps
	Benchmarks/run

bench-smoke: deps
	Benchmarks/run --smoke

clean:
	rm -rf .build Benchmarks/.build
