# Chain — the two commands of the README, plus the benchmark.
#   make demo   runs the samples against the bundled sample server on loopback
#   make test   runs the whole test suite
#   make docs   builds the reference into .build/docs and fails on an undocumented public symbol
# Both install libcurl's headers with apt-get first when they are missing.

SWIFT       ?= swift
# Zero warnings: the build fails on any warning in our Swift code.
STRICT      := -Xswiftc -warnings-as-errors

.PHONY: all deps build test docs demo bench bench-smoke tsan asan fuzz clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build $(STRICT)

test: deps
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build
	Benchmarks/run --smoke

# DocC archives per library module; fails on a public symbol without a doc comment or a broken link.
docs: deps
	scripts/docs

demo: deps
	$(SWIFT) build $(STRICT) --product demo
	$(SWIFT) run --skip-build demo

bench: deps
	Benchmarks/run

bench-smoke: deps
	Benchmarks/run --smoke

# The suite under ThreadSanitizer (with the 10,000-request stress test) and AddressSanitizer,
# each in its own build folder; libFuzzer targets for a bounded time (FUZZ_SECONDS, default 60).
tsan: deps
	scripts/hardening/tsan

asan: deps
	scripts/hardening/asan

fuzz: deps
	scripts/hardening/fuzz

clean:
	rm -rf .build .build-tsan .build-asan Benchmarks/.build Fuzz/.build
