package runtime

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/abi"
)

// Stack decl tags (see <bpfcc.h>): on a map, they say how its members
// that hold stacks are read.
const (
	// StackIDTag marks a map whose integer members named *stack* are
	// bpf_get_stackid results (members named *stack_id / *stackid are
	// read so without it).
	StackIDTag = abi.StackIDTag
	// UStackTag and KStackTag mark a map whose __u64 array members named
	// *stack* are bpf_get_stack buffers of user or kernel addresses (such
	// members are read so without it; the addresses say which is which).
	UStackTag = abi.UStackTag
	KStackTag = abi.KStackTag
)

// stackCtx is what printing stacks needs: the object's stack trace maps
// and the symboliser.
type stackCtx struct {
	sym    *symbolizer
	traces []*ebpf.Map // BPF_MAP_TYPE_STACK_TRACE maps, by name
	pid    int         // the traced process, for entries without a pid member
}

// stackField is one member of an entry that holds a stack.
type stackField struct {
	name   string
	id     int64 // bpf_get_stackid result
	buf    bool  // a bpf_get_stack buffer: frames are read already
	frames []Frame
	err    string
}

// memberPrefix marks a member's own decl tags among the map's in
// stackKind's tags.
const memberPrefix = "member:"

// memberTags returns the decl tags of the top-level members of types (a
// map's key and value, or an event record) by name.
func memberTags(types ...btf.Type) map[string][]string {
	out := map[string][]string{}
	for _, t := range types {
		if st, ok := btf.UnderlyingType(t).(*btf.Struct); ok {
			for _, m := range st.Members {
				for _, tag := range m.Tags {
					out[m.Name] = append(out[m.Name], memberPrefix+tag)
				}
			}
		}
	}
	return out
}

// stackKind says whether a member named name holding v is a stack id
// ("id"), a stack buffer ("buf") or neither ("").
func stackKind(name string, v any, tags []string) string {
	n := strings.ToLower(name)
	has := func(tag string) bool {
		for _, t := range tags {
			if t == tag {
				return true
			}
		}
		return false
	}
	switch v := v.(type) {
	case int64, uint64:
		if has(memberPrefix + StackIDTag) {
			return "id"
		}
		if strings.HasSuffix(n, "stack_id") || strings.HasSuffix(n, "stackid") || (has(StackIDTag) && strings.Contains(n, "stack")) {
			return "id"
		}
	case []any:
		if len(v) > 0 && (strings.Contains(n, "stack") || has(memberPrefix+UStackTag) || has(memberPrefix+KStackTag)) {
			if _, ok := v[0].(uint64); ok {
				return "buf"
			}
		}
	}
	return ""
}

// entryStacks returns the stacks a map entry holds, in member order.
func (c *stackCtx) entryStacks(ms *ebpf.MapSpec, e entry) []stackField {
	return c.recordStacks(memberTags(ms.Key, ms.Value), ms.Tags, e.key, e.value)
}

// recordStacks returns the stacks decoded records hold, in member order:
// mtags are their members' decl tags, tags those of the map.
func (c *stackCtx) recordStacks(mtags map[string][]string, tags []string, parts ...any) []stackField {
	pid := c.pid
	var found []stackField
	for _, part := range parts {
		rec, ok := part.(Record)
		if !ok {
			continue
		}
		for _, f := range rec {
			if n := strings.ToLower(f.Name); n == "pid" || n == "tgid" {
				if p, ok := asInt(f.Value); ok && p > 0 {
					pid = int(p)
				}
			}
		}
		for _, f := range rec {
			switch stackKind(f.Name, f.Value, append(mtags[f.Name], tags...)) {
			case "id":
				id, _ := asInt(f.Value)
				if id >= 1<<31 && id < 1<<32 {
					id = int64(int32(id)) // a negative error in a __u32
				}
				found = append(found, stackField{name: f.Name, id: id})
			case "buf":
				var addrs []uint64
				for _, x := range f.Value.([]any) {
					a := x.(uint64)
					if a == 0 {
						break
					}
					addrs = append(addrs, a)
				}
				found = append(found, stackField{name: f.Name, buf: true, frames: c.sym.Frames(pid, addrs)})
			}
		}
	}
	for i := range found {
		f := &found[i]
		if f.buf {
			continue
		}
		if f.id < 0 {
			f.err = fmt.Sprintf("no stack (error %d)", f.id)
			continue
		}
		addrs, err := c.lookup(uint32(f.id))
		if err != nil {
			f.err = err.Error()
			continue
		}
		f.frames = c.sym.Frames(pid, addrs)
	}
	return found
}

// lookup reads stack id from the first stack trace map that has it.
func (c *stackCtx) lookup(id uint32) ([]uint64, error) {
	for _, m := range c.traces {
		buf := make([]byte, m.ValueSize())
		if err := m.Lookup(&id, &buf); err != nil {
			continue
		}
		var addrs []uint64
		for i := 0; i+8 <= len(buf); i += 8 {
			a := binary.NativeEndian.Uint64(buf[i:])
			if a == 0 {
				break
			}
			addrs = append(addrs, a)
		}
		return addrs, nil
	}
	if len(c.traces) == 0 {
		return nil, fmt.Errorf("no BPF_MAP_TYPE_STACK_TRACE map")
	}
	return nil, fmt.Errorf("stack %d not found", id)
}

// printStacks prints the stacks of a map's entries after its table, or
// as folded lines (--folded), or as the "stacks" of each JSON row. It
// reports whether the map had stacks.
func (c *stackCtx) printStacks(name string, ms *ebpf.MapSpec, es []entry, opts *Options, out *printer) bool {
	if c == nil {
		return false
	}
	per := make([][]stackField, len(es))
	some := false
	for i, e := range es {
		per[i] = c.entryStacks(ms, e)
		some = some || len(per[i]) > 0
	}
	if !some {
		return false
	}
	switch {
	case opts.JSON:
		rows := make([]map[string]any, 0, len(es))
		for i, e := range es {
			row := map[string]any{"key": e.key, "value": e.value, "stacks": stacksJSON(per[i])}
			rows = append(rows, row)
		}
		out.jsonLine(map[string]any{"type": "map", "name": name, "map_type": ms.Type.String(), "entries": rows})
	case opts.Folded:
		out.text(formatFolded(es, per))
	default:
		out.text(formatTable(name, ms, summariseBuffers(es, per), opts.Verbose) + "\n")
		var b strings.Builder
		fmt.Fprintf(&b, "%s stacks:\n", name)
		for i, e := range es {
			fmt.Fprintf(&b, "  %s:\n", describeEntry(e))
			writeFrames(&b, "    ", per[i])
		}
		out.text(b.String() + "\n")
	}
	return true
}

// writeFrames writes each stack's frames, numbered, under its member's
// name.
func writeFrames(b *strings.Builder, indent string, fields []stackField) {
	for _, f := range fields {
		if f.err != "" {
			fmt.Fprintf(b, "%s%s: %s\n", indent, f.name, f.err)
			continue
		}
		fmt.Fprintf(b, "%s%s:\n", indent, f.name)
		for j, fr := range f.frames {
			fmt.Fprintf(b, "%s  #%-2d %s\n", indent, j, fr)
		}
	}
}

// stacksJSON is fields as a JSON object: frames, or the error, by member.
func stacksJSON(fields []stackField) map[string]any {
	st := map[string]any{}
	for _, f := range fields {
		if f.err != "" {
			st[f.name] = map[string]any{"error": f.err}
		} else {
			st[f.name] = f.frames
		}
	}
	return st
}

// describeEntry names an entry by its scalar members: "pid=1 value=3".
func describeEntry(e entry) string {
	var parts []string
	add := func(prefix string, v any) {
		if rec, ok := v.(Record); ok {
			for _, f := range rec {
				if _, isArr := f.Value.([]any); !isArr {
					parts = append(parts, f.Name+"="+FormatValue(f.Value))
				}
			}
			return
		}
		parts = append(parts, prefix+"="+FormatValue(v))
	}
	add("key", e.key)
	add("value", e.value)
	return strings.Join(parts, " ")
}

// formatFolded prints one line per distinct stack, root first, as
// flame-graph tools read them: "main;a;b COUNT". User frames come before
// kernel frames; the count is the entry's value when it is a number.
func formatFolded(es []entry, per [][]stackField) string {
	counts := map[string]uint64{}
	for i, e := range es {
		if len(per[i]) == 0 {
			continue
		}
		var user, kern []string
		for _, f := range per[i] {
			for j := len(f.frames) - 1; j >= 0; j-- {
				fr := f.frames[j]
				if fr.Module == "kernel" {
					kern = append(kern, fr.Name())
				} else {
					user = append(user, fr.Name())
				}
			}
		}
		n := uint64(1)
		if v, ok := asInt(e.value); ok {
			n = uint64(v)
		}
		line := strings.Join(append(user, kern...), ";")
		if line == "" {
			line = "[unknown]"
		}
		counts[line] += n
	}
	lines := make([]string, 0, len(counts))
	for l := range counts {
		lines = append(lines, l)
	}
	sort.Strings(lines)
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%s %d\n", l, counts[l])
	}
	return b.String()
}

// stackPoll is how often the traced process's mappings are re-read while
// it runs, so that its user stacks can be symbolised after it exits.
const stackPoll = 100 * time.Millisecond

// newStackCtx returns the stack printing context of an object that has a
// stack trace map or a map with a stack tag, or nil. With a traced
// process, its mappings are read now and then every stackPoll.
func newStackCtx(spec *ebpf.CollectionSpec, coll *ebpf.Collection, pid int, cmd *command, events []btf.Type) *stackCtx {
	c := &stackCtx{sym: newSymbolizer(), pid: pid}
	if cmd != nil {
		// Until it execs, the command's process is the gate shell, whose
		// mappings would symbolise the command's addresses wrongly.
		sh, err1 := filepath.EvalSymlinks("/bin/sh")
		bin, err2 := filepath.EvalSymlinks(cmd.path)
		if err1 == nil && (err2 != nil || sh != bin) {
			c.sym.notExe = sh
		}
	}
	tagged := false
	for _, name := range sortedKeys(spec.Maps) {
		ms := spec.Maps[name]
		if ms.Type == ebpf.StackTrace && coll.Maps[name] != nil {
			c.traces = append(c.traces, coll.Maps[name])
		}
		for _, t := range ms.Tags {
			tagged = tagged || t == StackIDTag || t == UStackTag || t == KStackTag
		}
	}
	if len(c.traces) == 0 && !tagged && !hasStackBuffer(spec, events) {
		return nil
	}
	if pid > 0 {
		c.sym.poll(pid, stackPoll)
	}
	return c
}

// hasStackBuffer reports whether some map's key or value, or an event
// record, has a __u64 array member named *stack* (a bpf_get_stack buffer).
func hasStackBuffer(spec *ebpf.CollectionSpec, events []btf.Type) bool {
	types := slices.Clone(events)
	for _, ms := range spec.Maps {
		types = append(types, ms.Key, ms.Value)
	}
	for _, t := range types {
		st, ok := btf.UnderlyingType(t).(*btf.Struct)
		if !ok {
			continue
		}
		for _, m := range st.Members {
			if a, ok := btf.UnderlyingType(m.Type).(*btf.Array); ok && strings.Contains(strings.ToLower(m.Name), "stack") {
				tagged := slices.Contains(m.Tags, UStackTag) || slices.Contains(m.Tags, KStackTag) || slices.Contains(m.Tags, StackIDTag)
				if tagged {
					return true
				}
				if in, ok := btf.UnderlyingType(a.Type).(*btf.Int); ok && in.Size == 8 {
					return true
				}
			}
		}
	}
	return false
}

// summariseBuffers returns es with each bpf_get_stack buffer member shown
// as "<N frames>" in the table; the frames follow it.
func summariseBuffers(es []entry, per [][]stackField) []entry {
	out := make([]entry, len(es))
	for i, e := range es {
		bufs := map[string]int{}
		for _, f := range per[i] {
			if f.buf {
				bufs[f.name] = len(f.frames)
			}
		}
		e.key, e.value = summariseRecord(e.key, bufs), summariseRecord(e.value, bufs)
		out[i] = e
	}
	return out
}

func summariseRecord(v any, bufs map[string]int) any {
	rec, ok := v.(Record)
	if !ok || len(bufs) == 0 {
		return v
	}
	r := make(Record, len(rec))
	for i, f := range rec {
		if n, ok := bufs[f.Name]; ok {
			f.Value = rawText(fmt.Sprintf("<%d frames>", n))
		}
		r[i] = f
	}
	return r
}
