/* glibc's <gnu/stubs-32.h> for a BPF compilation: glibc takes the BPF target
 * for a 32-bit one and asks for this file, which an x86-64 system lacks. */
