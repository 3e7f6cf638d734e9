// Force-included into the fuzz build (fuzz/CMakeLists.txt): toml++'s internal assertions compiled
// out, as in the library geomint links (Debian builds it with NDEBUG and GCC, where toml++'s
// "assume" is a no-op), so that the fuzzer checks the behaviour users get.
#pragma once
#define TOML_ASSERT(expr) static_assert(true)
