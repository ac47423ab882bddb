package progrun

import (
	"encoding/binary"
	"testing"
)

func TestBuildPacket(t *testing.T) {
	for spec, n := range map[string]int{
		"ipv4-tcp":           14 + 20 + 20,
		"ipv6-udp":           14 + 40 + 8,
		"ipv6-udp payload=4": 14 + 40 + 8 + 4,
		"eth len=42":         42,
		"ipv4-tcp len=20":    20,
	} {
		pkt, err := BuildPacket(spec)
		if err != nil || len(pkt) != n {
			t.Errorf("%s: %d bytes, %v; want %d", spec, len(pkt), err, n)
		}
	}
	pkt, _ := BuildPacket("ipv6-udp")
	if binary.BigEndian.Uint16(pkt[12:]) != 0x86dd || pkt[14+6] != 17 {
		t.Errorf("ipv6-udp: ethertype %#x next header %d", binary.BigEndian.Uint16(pkt[12:]), pkt[14+6])
	}
	if _, err := BuildPacket("ipv6-udp src=10.0.0.1"); err == nil {
		t.Error("an IPv4 source for an IPv6 packet: no error")
	}
}

func TestCompare(t *testing.T) {
	a := Observation{Retval: 1, Maps: map[string]MapDump{"m": {Entries: map[string][][]byte{"00": {{1}}}}}, Vars: map[string][]byte{"g": {1}, "t": {5}}}
	b := Observation{Retval: 2, Maps: map[string]MapDump{"m": {Entries: map[string][][]byte{"00": {{2}}, "01": {{3}}}}}, Vars: map[string][]byte{"g": {1}, "t": {6}}}
	got := map[string]int{}
	for _, d := range Compare(a, b, func(n string) bool { return n == "t" }) {
		got[d.What]++
	}
	if len(got) != 2 || got["retval"] != 1 || got["map m"] != 2 {
		t.Errorf("differences %v, want retval once and map m twice (t ignored)", got)
	}
	p := Observation{Maps: map[string]MapDump{"p": {PerCPU: true, Entries: map[string][][]byte{"00": {{1}, {0}}}}}}
	q := Observation{Maps: map[string]MapDump{"p": {PerCPU: true, Entries: map[string][][]byte{"00": {{0}, {1}}}}}}
	if d := Compare(p, q, nil); len(d) != 0 {
		t.Errorf("per-CPU values on other CPUs: %v, want none", d)
	}
	// Five runs: one on CPU 0 and four on CPU 1, or all five on CPU 1.
	r := Observation{Maps: map[string]MapDump{"p": {PerCPU: true, Entries: map[string][][]byte{"00": {{1, 0, 0, 0, 0, 0, 0, 0}, {4, 0, 0, 0, 0, 0, 0, 0}}}}}}
	s := Observation{Maps: map[string]MapDump{"p": {PerCPU: true, Entries: map[string][][]byte{"00": {{0, 0, 0, 0, 0, 0, 0, 0}, {5, 0, 0, 0, 0, 0, 0, 0}}}}}}
	if d := Compare(r, s, nil); len(d) != 0 {
		t.Errorf("runs split over CPUs: %v, want none", d)
	}
	s.Maps["p"].Entries["00"][1][0] = 6
	if d := Compare(r, s, nil); len(d) != 1 {
		t.Errorf("5 against 6 runs: %v, want one difference", d)
	}
}
