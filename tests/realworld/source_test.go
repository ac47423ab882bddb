package realworld

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// The suite's programs come from Debian's linux-source package: they are
// extracted at test time into a cache directory and never committed.
const (
	tarballDefault = "/usr/src/linux-source-6.12.tar.xz"
	treeName       = "linux-source-6.12"
)

// extractedPaths are the parts of the kernel tree the suite reads.
var extractedPaths = []string{
	"tools/testing/selftests/bpf",
	"tools/lib/bpf",
	"tools/include",
	"samples/bpf",
	"scripts/bpf_doc.py",
}

// tree is a prepared kernel tree with the header directories the suite
// compiles against.
type tree struct {
	Root string // the extracted linux-source-6.12 directory
	// Inc15 holds vmlinux.h and bpf/ with libbpf 1.5's headers (the tree's
	// tools/lib/bpf plus the generated bpf_helper_defs.h).
	Inc15 string
	// Inc11 holds vmlinux.h only: libbpf-dev 1.1's headers come from
	// /usr/include/bpf through the system include path.
	Inc11 string
	Cache string // where compiled clang objects are kept between runs
}

// tarballPath is the kernel source tarball, overridable for other machines.
func tarballPath() string {
	if p := os.Getenv("BPFCC_LINUX_SOURCE"); p != "" {
		return p
	}
	return tarballDefault
}

// cacheRoot is the directory test caches live in.
func cacheRoot() (string, error) {
	if d := os.Getenv("BPFCC_TEST_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "bpfcc-tests"), nil
}

// prepareTree extracts the tarball (once per tarball version) and writes
// the generated headers (once per running kernel's BTF). It holds a file
// lock so that concurrent test processes share one extraction.
func prepareTree() (*tree, error) {
	tarball := tarballPath()
	st, err := os.Stat(tarball)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (apt-get install linux-source-6.12)", tarball, err)
	}
	root, err := cacheRoot()
	if err != nil {
		return nil, err
	}
	// The directory is named after the tarball's identity so that a new
	// package version is extracted afresh.
	dir := filepath.Join(root, fmt.Sprintf("%s-%d-%d", treeName, st.Size(), st.ModTime().Unix()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()

	src := filepath.Join(dir, treeName)
	if _, err := os.Stat(filepath.Join(dir, "extracted")); err != nil {
		if err := extract(tarball, dir); err != nil {
			return nil, err
		}
	}
	btfSum, err := fileSum("/sys/kernel/btf/vmlinux")
	if err != nil {
		return nil, fmt.Errorf("kernel BTF: %w", err)
	}
	inc := filepath.Join(dir, "inc-"+btfSum[:16])
	t := &tree{Root: src, Inc15: filepath.Join(inc, "libbpf-1.5"), Inc11: filepath.Join(inc, "libbpf-1.1"), Cache: filepath.Join(dir, "objects")}
	if _, err := os.Stat(filepath.Join(inc, "done")); err != nil {
		if err := writeHeaders(t, inc); err != nil {
			return nil, err
		}
	}
	return t, os.MkdirAll(t.Cache, 0o755)
}

func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// extract unpacks the suite's parts of the tarball into dir/treeName,
// through a temporary directory so that an interrupted run leaves nothing
// half-extracted behind.
func extract(tarball, dir string) error {
	tmp, err := os.MkdirTemp(dir, "extract-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	args := []string{"-xJf", tarball, "-C", tmp}
	for _, p := range extractedPaths {
		args = append(args, treeName+"/"+p)
	}
	if out, err := exec.Command("tar", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("tar %s: %v: %s", tarball, err, out)
	}
	final := filepath.Join(dir, treeName)
	os.RemoveAll(final)
	if err := os.Rename(filepath.Join(tmp, treeName), final); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "extracted"), nil, 0o644)
}

// writeHeaders generates vmlinux.h from the running kernel's BTF with
// bpftool and bpf_helper_defs.h from the tree's uapi bpf.h with the
// kernel's own bpf_doc.py, as libbpf's build does.
func writeHeaders(t *tree, inc string) error {
	bpftool, err := exec.LookPath("bpftool")
	if err != nil {
		return fmt.Errorf("bpftool not installed (apt-get install bpftool): %w", err)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		return fmt.Errorf("python3 not installed (apt-get install python3): %w", err)
	}
	os.RemoveAll(inc)
	bpfDir := filepath.Join(t.Inc15, "bpf")
	for _, d := range []string{bpfDir, t.Inc11} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	vmlinux, err := exec.Command(bpftool, "btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c").Output()
	if err != nil {
		return fmt.Errorf("bpftool btf dump: %w", err)
	}
	helpers, err := exec.Command(python, filepath.Join(t.Root, "scripts/bpf_doc.py"), "--header",
		"--file", filepath.Join(t.Root, "tools/include/uapi/linux/bpf.h"), "helpers").Output()
	if err != nil {
		return fmt.Errorf("bpf_doc.py: %w", err)
	}
	for _, d := range []string{t.Inc15, t.Inc11} {
		if err := os.WriteFile(filepath.Join(d, "vmlinux.h"), vmlinux, 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(bpfDir, "bpf_helper_defs.h"), helpers, 0o644); err != nil {
		return err
	}
	libbpf, _ := filepath.Glob(filepath.Join(t.Root, "tools/lib/bpf/*.h"))
	for _, h := range libbpf {
		if err := copyFile(h, filepath.Join(bpfDir, filepath.Base(h))); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(inc, "done"), nil, 0o644)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func fileSum(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// sourceFile is one program of the suite in one header generation.
type sourceFile struct {
	Set  string // "selftests" or "samples"
	Gen  string // "1.5" or "1.1": which libbpf headers
	Path string
	// Args are the -I/-D flags clang and bpfcc share.
	Args []string
}

// ID names the file in tables and the known-failures list.
func (f sourceFile) ID() string {
	return f.Gen + " " + f.Set + "/" + filepath.Base(f.Path)
}

// suiteFiles lists every program of the suite, in both header generations.
func suiteFiles(t *tree) ([]sourceFile, error) {
	self := filepath.Join(t.Root, "tools/testing/selftests/bpf")
	samples := filepath.Join(t.Root, "samples/bpf")
	uapi := filepath.Join(t.Root, "tools/include/uapi")
	selfProgs, err := filepath.Glob(filepath.Join(self, "progs/*.c"))
	if err != nil {
		return nil, err
	}
	var sampleProgs []string
	for _, pat := range []string{"*.bpf.c", "*_kern.c"} {
		m, _ := filepath.Glob(filepath.Join(samples, pat))
		sampleProgs = append(sampleProgs, m...)
	}
	defs := []string{"-D__TARGET_ARCH_x86"}
	var files []sourceFile
	for _, gen := range []struct{ name, inc string }{{"1.5", t.Inc15}, {"1.1", t.Inc11}} {
		// The selftests' Makefile flags: -I of the generated headers,
		// the selftests directory and the tools' uapi headers.
		for _, p := range selfProgs {
			args := append([]string{"-DENABLE_ATOMICS_TESTS", "-I" + gen.inc, "-I" + self, "-I" + uapi}, defs...)
			files = append(files, sourceFile{Set: "selftests", Gen: gen.name, Path: p, Args: args})
		}
		// samples/bpf's kernel-tree programs need generated kernel
		// headers the tarball does not hold; those clang rejects too
		// and are counted out.
		for _, p := range sampleProgs {
			args := append([]string{"-I" + gen.inc, "-I" + samples, "-I" + self, "-I" + uapi,
				"-I" + filepath.Join(t.Root, "tools/include")}, defs...)
			files = append(files, sourceFile{Set: "samples", Gen: gen.name, Path: p, Args: args})
		}
	}
	return files, nil
}

// shortPath shows a path relative to the kernel tree.
func (t *tree) shortPath(p string) string {
	return strings.TrimPrefix(p, t.Root+"/")
}
