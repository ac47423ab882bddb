// Package realworld holds the real-world suite: the Linux kernel's BPF
// selftests and samples, from Debian's linux-source-6.12 package, compiled
// with clang-19 and bpfcc with libbpf 1.5's and libbpf-dev 1.1's headers.
// The sources are extracted at test time into a cache directory
// ($BPFCC_TEST_CACHE, else the user cache directory's bpfcc-tests) and never
// committed. known_failures.txt lists what bpfcc does not compile yet.
package realworld
