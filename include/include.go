// Package include holds the C headers bpfcc embeds, so that a BPF program
// compiles on a machine without libbpf's headers, and the predefined macros
// the frontend compiles every program with.
//
// The headers are written for bpfcc (never copied from libbpf) and are
// compatible in use with libbpf's of the same names:
//
//	compat/bpf/bpf_helper_defs.h  helper prototypes, generated from linux/bpf.h
//	compat/bpf/bpf_helpers.h      SEC, map macros, bpf_printk, __always_inline, ...
//	compat/bpf/bpf_endian.h       bpf_htons and friends
//	compat/bpf/bpf_tracing.h      PT_REGS_*, BPF_KPROBE and friends (x86-64)
//	compat/bpf/bpf_core_read.h    BPF_CORE_READ and the CO-RE queries (relocated)
//	own/bpfcc.h                   bpfcc's convenience header
//	own/std*.h, own/iso646.h,     the freestanding headers a compiler provides
//	own/limits.h                  (stddef, stdint, limits, stdatomic, stdbool,
//	                              stdarg, stdalign, stdnoreturn), as clang's
//	                              resource directory does: stdint.h and
//	                              limits.h build on the C library's when
//	                              there is one
//
// # Search order
//
// The frontend resolves #include <...> through, in order:
//
//  1. the -I directories;
//  2. [OwnDir], so <bpfcc.h> is always the embedded one, and the
//     freestanding headers come first as clang's resource directory does;
//  3. the system directories [SystemDirs]: /usr/local/include,
//     /usr/include/x86_64-linux-gnu, /usr/include;
//  4. [CompatDir], the embedded bpf/ headers, as a fallback: where libbpf's
//     headers are installed (/usr/include/bpf), they win.
//
// #include "..." searches the including file's directory first, then the
// same list. [SysIncludePaths] and [IncludePaths] build both lists, with
// the embedded directories as paths under [Root] that [CCFS] serves; give
// CCFS() to cc.Config.FS. Every other path falls through to the host file
// system (cc.Config.FSOnly must stay false).
//
// The compat headers include one another with "..." so they stay together
// even when only some of libbpf's are installed.
//
//go:generate go run ./internal/gen
package include

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"strings"
)

// FS holds the embedded headers: compat/bpf/*.h and own/bpfcc.h.
//
//go:embed compat/bpf/*.h own/*.h own/bpfcc/*.h
var FS embed.FS

// Files returns the embedded headers as a file system rooted at the
// directory holding compat/ and own/.
func Files() fs.FS { return FS }

// Directories of the embedded headers within [Files].
const (
	// CompatDir holds bpf/*.h, searched after the system directories.
	CompatDir = "compat"
	// OwnDir holds bpfcc.h, searched before the system directories.
	OwnDir = "own"
)

// Root is the absolute path under which [CCFS] serves the embedded headers.
// It names no directory of a real system, so an include resolved under it
// is certainly an embedded header, and diagnostics show where it came from.
const Root = "/<bpfcc>/include"

// Include paths of the embedded directories as the frontend passes them to
// cc, served by [CCFS].
const (
	CompatInclude = Root + "/" + CompatDir
	OwnInclude    = Root + "/" + OwnDir
)

// SystemDirs are the system include directories, in search order.
var SystemDirs = []string{
	"/usr/local/include",
	"/usr/include/x86_64-linux-gnu",
	"/usr/include",
}

// Search is a compile's include search beyond the embedded and system
// directories: Dirs are the -I and -isystem directories, in that order;
// After are the -idirafter ones, searched after the system directories;
// NoStd (-nostdinc) leaves [SystemDirs] out.
type Search struct {
	Dirs, After []string
	NoStd       bool
}

// System returns the search list for #include <...>: Dirs, [OwnInclude],
// [SystemDirs] (unless NoStd), After, then [CompatInclude].
func (s Search) System() []string {
	r := make([]string, 0, len(s.Dirs)+len(SystemDirs)+len(s.After)+2)
	r = append(r, s.Dirs...)
	r = append(r, OwnInclude)
	if !s.NoStd {
		r = append(r, SystemDirs...)
	}
	r = append(r, s.After...)
	return append(r, CompatInclude)
}

// Quoted returns the search list for #include "...": the including
// file's directory ("@" to cc), then [Search.System].
func (s Search) Quoted() []string {
	return append([]string{"@"}, s.System()...)
}

// SysIncludePaths is Search{Dirs: iDirs}.System().
func SysIncludePaths(iDirs []string) []string { return Search{Dirs: iDirs}.System() }

// IncludePaths is Search{Dirs: iDirs}.Quoted().
func IncludePaths(iDirs []string) []string { return Search{Dirs: iDirs}.Quoted() }

// CCFS returns a file system for cc.Config.FS: it serves the embedded
// headers under [Root] and reports every other name as not existing, which
// makes cc open it from the host file system.
func CCFS() fs.FS { return ccFS{} }

type ccFS struct{}

// Open implements fs.FS. cc passes host paths, absolute and with slashes;
// only the ones under Root are ours.
func (ccFS) Open(name string) (fs.File, error) {
	rel, ok := strings.CutPrefix(path.Clean(name), Root+"/")
	if !ok || !fs.ValidPath(rel) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := FS.Open(rel)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name
		}
		return nil, err
	}
	return f, nil
}
