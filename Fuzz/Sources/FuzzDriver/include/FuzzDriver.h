#ifndef CHAIN_FUZZ_DRIVER_H
#define CHAIN_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, LLVM 11+), for programs that have their own `main`.
/// SwiftPM gives every executable target a `main` of its own (its top-level code), so the
/// fuzz targets call this from `main.swift` instead of linking libFuzzer's `main`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
