#include <stddef.h>

// glibc's memmem (two-way string matching: linear in the haystack whatever the needle, and
// vectorised). Swift's Glibc module is built without _GNU_SOURCE, so it is declared here.
extern void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);
