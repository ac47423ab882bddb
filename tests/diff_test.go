package tests

import (
	"errors"
	"fmt"
	"testing"

	"github.com/cilium/ebpf"

	"github.com/bpfcc/bpfcc/tests/internal/progrun"
)

// TestDifferential compiles every corpus program with clang-19 and with
// bpfcc, runs both on the same inputs and compares everything observable:
// the object's programs and maps, return values, output packets, map
// contents and global variables after each run.
func TestDifferential(t *testing.T) {
	clang := requireClang(t)
	requireKernel(t)
	for _, p := range loadCorpus(t) {
		t.Run(p.Name, func(t *testing.T) {
			obj, err := compileClang(clang, p, t.TempDir())
			if errors.Is(err, errClangRejects) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cspec, err := parseObject(obj)
			if p.NoClangCilium != "" {
				// TestCorpusWithClang checks the directive still holds.
				t.Logf("no differential: %s", p.NoClangCilium)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := compileBPFCC(p)
			if err != nil {
				t.Fatal(err)
			}
			reportErrors(t, compareSpecs(cspec, res.Spec))
			cobs, err := runProgram(p, cspec)
			if err != nil {
				t.Fatalf("clang's object: %v", err)
			}
			bobs, err := runProgram(p, res.Spec)
			if p.XFail != "" {
				t.Logf("bpfcc's object is an expected failure (%s); clang's ran", p.XFail)
				return
			}
			if err != nil {
				t.Fatalf("bpfcc's object: %v", err)
			}
			for i := range min(len(cobs), len(bobs)) {
				reportErrors(t, compareObservations(p, p.Cases[i], cobs[i], bobs[i]))
			}
		})
	}
}

// compareSpecs compares the shape of two objects: program names and types,
// and user maps with their types and sizes.
func compareSpecs(clang, bpfcc *ebpf.CollectionSpec) []error {
	var errs []error
	for name, cp := range clang.Programs {
		bp := bpfcc.Programs[name]
		switch {
		case bp == nil:
			errs = append(errs, fmt.Errorf("program %s (%v) missing from bpfcc's object", name, cp.Type))
		case bp.Type != cp.Type || bp.AttachType != cp.AttachType || bp.AttachTo != cp.AttachTo || bp.SectionName != cp.SectionName:
			errs = append(errs, fmt.Errorf("program %s: bpfcc %v/%v %q section %q, clang %v/%v %q section %q",
				name, bp.Type, bp.AttachType, bp.AttachTo, bp.SectionName, cp.Type, cp.AttachType, cp.AttachTo, cp.SectionName))
		}
		if bp != nil && bp.License != cp.License {
			errs = append(errs, fmt.Errorf("program %s: license %q, clang %q", name, bp.License, cp.License))
		}
	}
	for name := range bpfcc.Programs {
		if clang.Programs[name] == nil {
			errs = append(errs, fmt.Errorf("bpfcc's object has a program %s that clang's lacks", name))
		}
	}
	for name, cm := range clang.Maps {
		if name[0] == '.' {
			continue // data sections: compared variable by variable
		}
		bm := bpfcc.Maps[name]
		if bm == nil {
			errs = append(errs, fmt.Errorf("map %s missing from bpfcc's object", name))
			continue
		}
		if bm.Type != cm.Type || bm.KeySize != cm.KeySize || bm.ValueSize != cm.ValueSize || bm.MaxEntries != cm.MaxEntries || bm.Flags != cm.Flags {
			errs = append(errs, fmt.Errorf("map %s: bpfcc %v key %d value %d max %d flags %#x, clang %v key %d value %d max %d flags %#x",
				name, bm.Type, bm.KeySize, bm.ValueSize, bm.MaxEntries, bm.Flags, cm.Type, cm.KeySize, cm.ValueSize, cm.MaxEntries, cm.Flags))
		}
	}
	return errs
}

// compareObservations compares one run of the two objects.
func compareObservations(p *program, c runCase, clang, bpfcc progrun.Observation) []error {
	at := fmt.Sprintf("%s:%d: PACKET %s", p.Path, c.Line, c.Packet)
	var errs []error
	for _, d := range progrun.Compare(clang, bpfcc, func(name string) bool { return p.NonDet[name] }) {
		errs = append(errs, fmt.Errorf("%s: %s", at, d))
	}
	return errs
}
