package tests

// The DWARF end-to-end tests (dwarf_e2e_test.go): which handlers bind what at which sites, and their C source.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/dwarfvars"
)

// dwPlan decides the handlers for one build: for each probe, one handler
// with the spec itself binding what every site of it can bind, and when the
// spec gives several sites, one FUNC+OFF handler per site with all it can
// bind there.
func dwPlan(t testing.TB, b *dwarfvars.Binary, probes []dwProbe) ([]*dwHandler, []dwRefusal) {
	var hs []*dwHandler
	var refused []dwRefusal
	seenRefusal := map[string]bool{}
	bindAt := func(s dwarfvars.Site, extras []string) []dwVar {
		var cands []string
		seen := map[string]bool{}
		vs, err := b.Vars(s)
		if err != nil {
			t.Errorf("Vars(%s): %v", s, err)
		}
		for _, v := range vs {
			if v.Shadowed || seen[v.Name] || strings.HasPrefix(v.Name, "~") {
				// (Go's unnamed results ~r0 cannot be named.)
				continue
			}
			if _, ok := dwCType(v.Type); !ok {
				continue
			}
			seen[v.Name] = true
			cands = append(cands, v.Name)
		}
		for _, e := range extras {
			if !seen[e] {
				seen[e] = true
				cands = append(cands, e)
			}
		}
		var out []dwVar
		for _, c := range cands {
			e, err := dwarfvars.ParseExpr(c)
			if err != nil {
				t.Errorf("ParseExpr(%q): %v", c, err)
				continue
			}
			bd, err := b.Bind(s, e)
			if err != nil {
				key := fmt.Sprintf("%#x/%s", s.Addr, c)
				if !seenRefusal[key] {
					seenRefusal[key] = true
					refused = append(refused, dwRefusal{s, c, err})
				}
				continue
			}
			if _, ok := dwCType(bd.Type); !ok {
				continue
			}
			out = append(out, dwVar{expr: c, bd: bd})
		}
		return out
	}
	addOne := func(probe string, sites []dwarfvars.Site, per [][]dwVar, common []string) {
		dwAddHandler(&hs, probe, sites, per, common)
	}
	add := func(probe string, sites []dwarfvars.Site, per [][]dwVar) {
		// Keep the expressions bindable at every site, in the first site's order.
		var common []string
		for _, v := range per[0] {
			ok := true
			for _, o := range per[1:] {
				found := false
				for _, w := range o {
					found = found || w.expr == v.expr
				}
				ok = ok && found
			}
			if ok {
				common = append(common, v.expr)
			}
		}
		// lower rejects handlers with more than 5 C parameters even though
		// the bound ones are rewritten away (see TestDWARFKnownBugs), so at
		// most 4 expressions go into one handler.
		for len(common) > dwMaxArgs {
			addOne(probe, sites, per, common[:dwMaxArgs])
			common = common[dwMaxArgs:]
		}
		addOne(probe, sites, per, common)
	}
	for _, pr := range probes {
		p, err := dwarfvars.ParseProbe(pr.spec)
		if err != nil {
			t.Errorf("ParseProbe(%q): %v", pr.spec, err)
			continue
		}
		sites, err := b.Resolve(p)
		if err != nil {
			t.Errorf("%s: Resolve(%q): %v", b.Path, pr.spec, err)
			continue
		}
		per := make([][]dwVar, len(sites))
		for i, s := range sites {
			per[i] = bindAt(s, pr.extras)
		}
		add(pr.spec, sites, per)
		if strings.HasPrefix(pr.spec, "entry2:") {
			// Each expression also in a handler of its own: handlers at one
			// function that need the entry values of different registers.
			for _, v := range per[0] {
				addOne(pr.spec, sites, per, []string{v.expr})
			}
		}
		if len(sites) > 1 {
			for i, s := range sites {
				add(s.OffsetSpec(), []dwarfvars.Site{s}, per[i:i+1])
			}
		}
	}
	return hs, refused
}

// dwMaxArgs is how many bound expressions one generated handler takes.
const dwMaxArgs = 4

func dwAddHandler(hs *[]*dwHandler, probe string, sites []dwarfvars.Site, per [][]dwVar, common []string) {
	if len(common) == 0 {
		return
	}
	h := &dwHandler{id: len(*hs) + 1, probe: probe}
	h.name = fmt.Sprintf("h%d", h.id)
	h.cli = h.id%2 == 0
	for i, s := range sites {
		ds := dwSite{site: s}
		for _, c := range common {
			for _, w := range per[i] {
				if w.expr == c {
					ds.vars = append(ds.vars, w)
				}
			}
		}
		h.sites = append(h.sites, ds)
	}
	for i, v := range h.sites[0].vars {
		p := fmt.Sprintf("v%d", i)
		// The handler's own names (ctx, the maps) stay its own.
		if !h.cli && isCIdent(v.expr) && !strings.HasPrefix(v.expr, "__") && v.expr != "ctx" && v.expr != "rec" && v.expr != "cnt" {
			p = v.expr // bare ARG form: the parameter is named after the variable
		}
		h.vars = append(h.vars, dwVar{expr: v.expr, param: p, bd: v.bd})
	}
	*hs = append(*hs, h)
}

func isCIdent(s string) bool {
	return regexp.MustCompile(`^[A-Za-z_]\w*$`).MatchString(s)
}

// dwHandlerSource writes the C file of the generated handlers. Each handler
// counts its hits per (handler, ip) and stores every bound value under
// {ip, handler<<32 | hit<<16 | argument}.
func dwHandlerSource(hs []*dwHandler) (src string, probes, binds []string) {
	var b strings.Builder
	b.WriteString(`#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct reckey { __u64 ip; __u64 tag; };
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct reckey);
	__type(value, __s64);
	__uint(max_entries, 16384);
} rec SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct reckey);
	__type(value, __u64);
	__uint(max_entries, 1024);
} cnt SEC(".maps");

#define PUT(h, a, x) do { \
	struct reckey __k = { __ip, ((__u64)(h) << 32) | (__seq << 16) | (a) }; \
	__s64 __x = (__s64)(x); \
	bpf_map_update_elem(&rec, &__k, &__x, BPF_ANY); \
} while (0)

`)
	var cfg []string
	for _, h := range hs {
		if h.cli {
			probes = append(probes, h.name+"="+h.probe)
			for _, v := range h.vars {
				binds = append(binds, fmt.Sprintf("%s.%s=%s", h.name, v.param, v.expr))
			}
		} else {
			e := h.name + ": " + h.probe
			for _, v := range h.vars {
				if v.param == v.expr {
					e += " " + v.param
				} else {
					e += " " + v.param + "=" + v.expr
				}
			}
			cfg = append(cfg, e)
		}
		fmt.Fprintf(&b, "int %s(struct pt_regs *ctx", h.name)
		for _, v := range h.vars {
			ct, _ := dwCType(v.bd.Type)
			fmt.Fprintf(&b, ", %s %s", ct, v.param)
		}
		ipExpr := "ctx->rip"
		if h.sites[0].site.Return {
			// A return probe's ip is the caller's return address, which
			// differs per call site (clang unrolls main's loop): count the
			// hits of the handler as a whole.
			ipExpr = "0"
		}
		fmt.Fprintf(&b, ")\n{\n\t__u64 __ip = %s;\n\tstruct reckey __ck = { __ip, %d };\n", ipExpr, h.id)
		b.WriteString("\t__u64 __seq = 0;\n\t__u64 *__c = bpf_map_lookup_elem(&cnt, &__ck);\n\tif (__c)\n\t\t__seq = *__c;\n")
		b.WriteString("\t__u64 __n = __seq + 1;\n\tbpf_map_update_elem(&cnt, &__ck, &__n, BPF_ANY);\n")
		for i, v := range h.vars {
			fmt.Fprintf(&b, "\tPUT(%d, %d, %s);\n", h.id, i, v.param)
		}
		b.WriteString("\treturn 0;\n}\n\n")
	}
	// Config entries split over two strings, separated by ';' and newlines.
	half := (len(cfg) + 1) / 2
	if len(cfg) > 0 {
		fmt.Fprintf(&b, "SEC(\"config\") char _cfg1[] = %q;\n", strings.Join(cfg[:half], "; "))
	}
	if len(cfg) > half {
		fmt.Fprintf(&b, "SEC(\"config\") char _cfg2[] = %q;\n", strings.Join(cfg[half:], "\n"))
	}
	b.WriteString("char LICENSE[] SEC(\"license\") = \"GPL\";\n")
	return b.String(), probes, binds
}
