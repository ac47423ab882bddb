package realworld

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// libbpfOpen is a small C program that opens each object named on its
// command line with the system libbpf (libbpf-dev) as bpftool and libbpf
// programs do before loading: ELF, BTF, .BTF.ext, maps, relocations and
// sections, no kernel. It prints "OK PATH" or "FAIL PATH ERRNO MESSAGE".
const libbpfOpen = `#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <bpf/libbpf.h>

static char msg[512];

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_DEBUG)
		vsnprintf(msg, sizeof(msg), fmt, ap);
	return 0;
}

int main(int argc, char **argv)
{
	libbpf_set_print(print);
	for (int i = 1; i < argc; i++) {
		msg[0] = 0;
		struct bpf_object *o = bpf_object__open_file(argv[i], NULL);
		long err = libbpf_get_error(o);
		if (err) {
			msg[strcspn(msg, "\n")] = 0;
			printf("FAIL %s %ld %s\n", argv[i], err, msg);
			continue;
		}
		printf("OK %s\n", argv[i]);
		bpf_object__close(o);
	}
	return 0;
}
`

// TestRealWorldLibbpfOpen opens both objects of every file of the suite
// with libbpf: every object of bpfcc's must open where clang's does.
func TestRealWorldLibbpfOpen(t *testing.T) {
	if _, err := os.Stat("/usr/include/bpf/libbpf.h"); err != nil {
		skipOrFail(t, "needs libbpf-dev (/usr/include/bpf/libbpf.h)")
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		skipOrFail(t, "needs gcc to build the libbpf checker")
	}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "open.c"), filepath.Join(dir, "open")
	if err := os.WriteFile(src, []byte(libbpfOpen), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-O1", "-o", bin, src, "-lbpf").CombinedOutput(); err != nil {
		t.Fatalf("building the libbpf checker: %v\n%s", err, out)
	}
	s := compiledSuite(t)
	var paths []string
	for _, r := range s.results {
		if r.Clang.OK && r.Bpfcc.OK {
			paths = append(paths, r.Clang.Object, r.Bpfcc.Object)
		}
	}
	verdicts := map[string]string{} // path: "" when it opens, else why not
	for start := 0; start < len(paths); start += 200 {
		batch := paths[start:min(start+200, len(paths))]
		out, err := exec.Command(bin, batch...).Output()
		if err != nil {
			t.Fatalf("libbpf checker: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			status, rest, _ := strings.Cut(sc.Text(), " ")
			path, why, _ := strings.Cut(rest, " ")
			if status == "OK" {
				verdicts[path] = ""
			} else {
				verdicts[path] = why
			}
		}
	}
	files, clangFails, bothFail := 0, 0, 0
	for _, r := range s.results {
		if !r.Clang.OK || !r.Bpfcc.OK {
			continue
		}
		files++
		cv, cok := verdicts[r.Clang.Object]
		bv, bok := verdicts[r.Bpfcc.Object]
		if !cok || !bok {
			t.Errorf("%s: the checker gave no verdict", r.ID)
			continue
		}
		switch {
		case cv != "" && bv != "":
			bothFail++
		case cv != "":
			clangFails++
		case bv != "":
			t.Errorf("%s: libbpf opens clang's object, not bpfcc's: %s", r.ID, bv)
		}
	}
	t.Logf("libbpf (libbpf-dev) opened both objects of %d of %d files; clang's alone fails in %d, both fail in %d (features newer than this libbpf, objects meant for the static linker)",
		files-clangFails-bothFail, files, clangFails, bothFail)
}
