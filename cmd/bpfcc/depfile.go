package main

import (
	"path/filepath"
	"strings"

	"github.com/bpfcc/bpfcc/include"
)

// depOption records -MF FILE, -MT TARGET or -MQ TARGET (quoted for make).
func (c *config) depOption(flag, v string) {
	switch flag {
	case "-MF":
		c.depOut = v
	case "-MT":
		c.depTargets = append(c.depTargets, v)
	default:
		c.depTargets = append(c.depTargets, makeQuote(v))
	}
}

// depFilePath is where -MD writes its rule: -MF's file, else the object's
// name with .d for its suffix, as clang names it.
func (c *config) depFilePath() string {
	if c.depOut != "" {
		return c.depOut
	}
	out := c.outPath()
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".d"
}

// depFileText is the make rule clang's -MD writes: the targets (-MT/-MQ,
// else the object), then the files the compile read, the source first;
// -MMD leaves out the headers of the system directories, -MP adds an
// empty rule for each header so that make does not fail once one is gone.
func (c *config) depFileText(files []string) string {
	targets := c.depTargets
	if len(targets) == 0 {
		targets = []string{makeQuote(c.outPath())}
	}
	var deps []string
	for i, f := range files {
		if i > 0 && c.depUser && c.isSystemHeader(f) {
			continue
		}
		deps = append(deps, makeQuote(f))
	}
	var b strings.Builder
	b.WriteString(strings.Join(targets, " "))
	b.WriteString(":")
	for _, d := range deps {
		b.WriteString(" \\\n  ")
		b.WriteString(d)
	}
	b.WriteString("\n")
	if c.depPhony {
		for _, d := range deps[min(1, len(deps)):] {
			b.WriteString("\n" + d + ":\n")
		}
	}
	return b.String()
}

// isSystemHeader reports whether f was found in a system directory: the
// default ones, -isystem or -idirafter.
func (c *config) isSystemHeader(f string) bool {
	var dirs []string
	if !c.noStdInc {
		dirs = append(dirs, include.SystemDirs...)
	}
	dirs = append(append(dirs, c.sysDirs...), c.afterDirs...)
	for _, d := range dirs {
		if rel, err := filepath.Rel(filepath.Clean(d), filepath.Clean(f)); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// makeQuote escapes a file name for a make rule as clang does: blanks
// and # with a backslash, $ doubled.
func makeQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case ' ', '\t', '#':
			b.WriteByte('\\')
		case '$':
			b.WriteByte('$')
		}
		b.WriteRune(r)
	}
	return b.String()
}
