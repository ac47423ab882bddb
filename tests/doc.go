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
//	// CHECK: P, CHECK-NEXT: P, ...       (lines of the -S listing, package filecheck)
//	// LISTING: whole REASON              (the whole -S listing is testdata/NAME.golden)
//	// NONDET: NAME                       (map or variable the differential test ignores)
//	// CLANG-BPFTOOL: skip REASON          (clang's object is not expected to load with libbpf)
//	// BPFTOOL: skip REASON                (neither is bpfcc's: a construct only another loader handles)
//	// CLANG-CILIUM: skip REASON           (cilium/ebpf cannot parse or load clang's object; not run or compared)
//
// Every program says what its listing must show (TestGolden): CHECK,
// CHECK-NEXT, CHECK-SAME, CHECK-NOT and CHECK-EMPTY lines, in the manner of
// LLVM's FileCheck, pin the instructions that show the behaviour the
// program tests ({{RE}} and [[VAR:RE]]/[[VAR]] for registers and offsets
// that do not matter); they see the listing without its "; NAME.c:LINE:"
// source annotations, and they go at the end of the file, after the code,
// so that adding them moves no line of code (and changes no object). Only a
// program whose whole listing is the point says LISTING: whole with its
// reason and has a testdata/NAME.golden; any other .golden fails the test.
// Object identity is held by testdata/objects.sha256.
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
