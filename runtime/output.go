package runtime

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// printer serialises everything the run prints: events and printk lines
// arrive from several goroutines.
type printer struct {
	mu     sync.Mutex
	out    io.Writer
	errw   io.Writer
	json   bool
	prefix bool // prefix events with their map name (more than one output map)
	// printed counts the results printed (events, printk lines, tables,
	// histograms, lost-event reports), not diagnostics.
	printed int
}

// jsonLine writes one JSON object per line.
func (p *printer) jsonLine(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printed++
	p.out.Write(append(b, '\n'))
}

func (p *printer) text(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printed++
	io.WriteString(p.out, s)
}

// header writes a line that is not a result (an --interval print's time).
func (p *printer) header(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.out, s)
}

func (p *printer) diag(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.errw, format+"\n", args...)
}

// event prints one decoded record from an output map.
// Stack members are shown as "<N frames>" in the line, their frames
// below it (in JSON, as "stacks").
func (p *printer) event(mapName string, v any, stacks []stackField) {
	if p.json {
		ev := map[string]any{"type": "event", "map": mapName, "data": v}
		if len(stacks) > 0 {
			ev["stacks"] = stacksJSON(stacks)
		}
		p.jsonLine(ev)
		return
	}
	if len(stacks) > 0 {
		v = summariseBuffers([]entry{{value: v}}, [][]stackField{stacks})[0].value
	}
	line := FormatRecord(v)
	if p.prefix {
		line = mapName + ": " + line
	}
	var b strings.Builder
	b.WriteString(line + "\n")
	writeFrames(&b, "  ", stacks)
	p.text(b.String())
}

// printk prints one bpf_printk line.
func (p *printer) printk(task string, pid int, msg string) {
	if p.json {
		p.jsonLine(map[string]any{"type": "printk", "task": task, "pid": pid, "msg": msg})
		return
	}
	p.text(msg + "\n")
}

// lost reports events an output map dropped.
func (p *printer) lost(mapName string, n uint64) {
	if p.json {
		p.jsonLine(map[string]any{"type": "lost", "map": mapName, "count": n})
		return
	}
	p.mu.Lock()
	p.printed++
	p.mu.Unlock()
	p.diag("%s: %d events lost (the buffer was full)", mapName, n)
}

// results reports how many results were printed so far.
func (p *printer) results() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.printed
}
