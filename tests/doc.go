// Package tests holds bpfcc's end-to-end test corpus and the harnesses that
// use it.
//
// testdata/NAME.c are small C programs, one feature each, written in the
// chibicc style: the program computes, compares with the expected values and
// returns 0 on success or the number of the first failing check. Their header
// comments tell the harnesses how to run them:
//
//	// RUN: xdp|socket|tc|syscall|load-only [prog=NAME]
//	// CFLAGS: -DNAME=VALUE -UNAME        (passed to bpfcc and clang alike)
//	// PACKET: KIND [key=value ...] [repeat=N]
//	// EXPECT: retval=V | len=N | packet=unchanged
//	// EXPECT-PACKET: OFFSET HEXBYTES
//	// EXPECT-MAP: MAP key=K value=V      (value=absent: no such key)
//	// EXPECT-VAR: NAME=V                 (a global in .data/.bss/.rodata)
//	// ASM: "text"   / ASM: -"text"       (the -S listing must / must not contain text)
//	// NONDET: NAME                       (map or variable the differential test ignores)
//	// CLANG-BPFTOOL: skip REASON          (clang's object is not expected to load with libbpf)
//	// CLANG-CILIUM: skip REASON           (cilium/ebpf cannot parse clang's object; not run or compared)
//
// Every PACKET line starts a new run of the program against the same loaded
// collection; EXPECT lines apply to the run they follow (lines before the first
// PACKET belong to a run with the default packet). Packet kinds are eth,
// ipv4-tcp, ipv4-udp, ipv4-icmp, ipv6-tcp, zeros, raw and none; see
// packet_test.go for their keys and defaults. CPU: vN sets -mcpu for both
// compilers, CLANG-CPU: vN for clang only (clang has no signed division
// below v4, which bpfcc must lower by a sequence).
//
// reject/NAME.c are programs bpfcc must refuse, each with one or more
//
//	// ERROR: LINE[:COL]: TEXT
//
// lines naming a diagnostic the compiler must report (col may be left out),
// and CLANG: error where clang's front end rejects the file too.
package tests
