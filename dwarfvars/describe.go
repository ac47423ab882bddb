package dwarfvars

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Describe renders a variable and its location: "int cnt = *(s32 *)(CFA-28
// = rsp+36)", or why it cannot be read.
func (v Var) Describe() string {
	head := fmt.Sprintf("%s %s", v.Type.Spelling, v.Name)
	if v.Err != nil {
		return head + ": " + shortReason(v.Err)
	}
	return head + " = " + v.Loc.Describe(v.Type)
}

// shortReason renders a location error without its site prefix.
func shortReason(err error) string {
	var oo *OptimizedOutError
	var un *UnsupportedError
	var ip *ImplicitPointerError
	switch {
	case errors.As(err, &ip):
		return "<synthetic pointer: read what it points to, " + ip.Var + "->m or *" + ip.Var + ">"
	case errors.As(err, &oo):
		if oo.Reason != "" {
			return "<unavailable: " + oo.Reason + ">"
		}
		if a := oo.available(); a != "" {
			return "<optimized out>; available at " + a
		}
		return "<optimized out>"
	case errors.As(err, &un):
		switch {
		case un.Reg != "" && un.Reason == "":
			return "<in " + un.Reg + ", not readable by a probe>"
		case un.Reg != "" && isVectorRegName(un.Reg):
			return "<in " + un.Reg + ", not readable by a probe: " + un.Reason + ">"
		case un.Op != "":
			return "<uses " + un.Op + ">"
		}
		return "<" + un.Reason + ">"
	}
	return "<" + err.Error() + ">"
}

// WriteVars writes a listing of the variables visible at each site of a
// probe, for `bpfcc --vars PROBE -x BIN`:
//
//	sum_loop+0x1c (target.c:48)
//	    param  int   n      = rdi
//	    local  long  total  = *(s64 *)(CFA-40 = rsp+8)
func (b *Binary) WriteVars(w io.Writer, p Probe) error {
	sites, err := b.Resolve(p)
	if err != nil {
		return err
	}
	for _, s := range sites {
		vs, err := b.Vars(s)
		if err != nil {
			return err
		}
		if err := FormatVars(w, s, vs); err != nil {
			return err
		}
	}
	return nil
}

// FormatVars writes one site's variables as an aligned table.
func FormatVars(w io.Writer, s Site, vs []Var) error {
	head := s.String()
	if len(s.Inlined) > 0 {
		head += " in inlined " + strings.Join(s.Inlined, " < ")
	}
	if _, err := fmt.Fprintf(w, "%s [%#x, file offset %#x]\n", head, s.Addr, s.FileOffset); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, v := range vs {
		if v.Shadowed {
			continue
		}
		kind := v.Kind.String()
		if v.Inlined {
			kind += " (" + v.Scope + ")"
		}
		where := "= " + v.Loc.Describe(v.Type)
		if v.Err != nil {
			where = shortReason(v.Err)
		} else if v.Loc.UsesEntryValue() {
			where += "  [entry value]"
		}
		if _, err := fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", kind, v.Type.Spelling, v.Name, where); err != nil {
			return err
		}
	}
	return tw.Flush()
}

func isVectorRegName(r string) bool {
	return strings.HasPrefix(r, "xmm") || strings.HasPrefix(r, "ymm")
}
