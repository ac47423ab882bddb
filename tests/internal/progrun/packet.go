package progrun

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// The PACKET vocabulary. A spec is a kind followed by key=value options:
//
//	none                       no data (syscall programs)
//	eth      [proto=N]         an Ethernet header alone, EtherType proto (default 0x0806)
//	ipv4-tcp                   Ethernet + IPv4 + TCP
//	ipv4-udp                   Ethernet + IPv4 + UDP
//	ipv4-icmp                  Ethernet + IPv4 + ICMP echo request
//	ipv6-tcp                   Ethernet + IPv6 + TCP
//	ipv6-udp                   Ethernet + IPv6 + UDP
//	zeros    len=N             N zero bytes
//	raw      hex=BYTES         exactly these bytes
//
// Options for the IP kinds: src=, dst= (addresses), sport=, dport=, ttl=,
// ihl= (IPv4 header words, options zero-filled), frag= (IPv4 fragment offset
// field), flags= (TCP flags by name joined with '|': fin syn rst psh ack urg),
// payload=N (N bytes 0x00, 0x01, ...). For every kind but none and raw,
// len=N cuts or zero-pads the frame to N bytes.
//
// Defaults: dst MAC 02:00:00:00:00:02, src MAC 02:00:00:00:00:01,
// 10.0.0.1 -> 10.0.0.2 (fd00::1 -> fd00::2), sport 12345, dport 80, ttl 64,
// TCP flags syn. The IPv4 header checksum is valid; L4 checksums are zero.

var (
	dstMAC = []byte{0x02, 0, 0, 0, 0, 0x02}
	srcMAC = []byte{0x02, 0, 0, 0, 0, 0x01}
)

const (
	ethPIPv4 = 0x0800
	ethPIPv6 = 0x86dd
	ethPARP  = 0x0806
)

// BuildPacket returns the frame a PACKET spec describes (nil for none).
func BuildPacket(spec string) ([]byte, error) {
	f := strings.Fields(spec)
	if len(f) == 0 {
		return nil, fmt.Errorf("empty packet spec")
	}
	kind := f[0]
	opts := map[string]string{}
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("packet option %q: want key=value", kv)
		}
		if _, dup := opts[k]; dup {
			return nil, fmt.Errorf("packet option %q given twice", k)
		}
		opts[k] = v
	}
	used := map[string]bool{}
	get := func(k, def string) string {
		used[k] = true
		if v, ok := opts[k]; ok {
			return v
		}
		return def
	}
	num := func(k string, def, max uint64) (uint64, error) {
		s := get(k, strconv.FormatUint(def, 10))
		n, err := strconv.ParseUint(s, 0, 64)
		if err != nil || n > max {
			return 0, fmt.Errorf("packet option %s=%s: want a number up to %d", k, s, max)
		}
		return n, nil
	}

	var pkt []byte
	var err error
	switch kind {
	case "none":
		if len(opts) > 0 {
			return nil, fmt.Errorf("packet none takes no options")
		}
		return nil, nil
	case "raw":
		pkt, err = hex.DecodeString(get("hex", ""))
		if err != nil {
			return nil, fmt.Errorf("packet raw: %v", err)
		}
	case "zeros":
		n, err := num("len", 64, 4096)
		if err != nil {
			return nil, err
		}
		pkt = make([]byte, n)
	case "eth":
		proto, err := num("proto", ethPARP, 0xffff)
		if err != nil {
			return nil, err
		}
		pkt = ethHeader(uint16(proto))
	case "ipv4-tcp", "ipv4-udp", "ipv4-icmp", "ipv6-tcp", "ipv6-udp":
		pkt, err = buildIP(kind, get, num)
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown packet kind %q", kind)
	}
	if kind != "raw" && kind != "zeros" {
		if _, ok := opts["len"]; ok {
			n, err := num("len", 0, 4096)
			if err != nil {
				return nil, err
			}
			if int(n) < len(pkt) {
				pkt = pkt[:n]
			} else {
				pkt = append(pkt, make([]byte, int(n)-len(pkt))...)
			}
		}
	}
	for k := range opts {
		if !used[k] {
			return nil, fmt.Errorf("packet %s: unknown option %q", kind, k)
		}
	}
	return pkt, nil
}

func ethHeader(proto uint16) []byte {
	h := make([]byte, 14)
	copy(h[0:6], dstMAC)
	copy(h[6:12], srcMAC)
	binary.BigEndian.PutUint16(h[12:], proto)
	return h
}

var tcpFlagBits = map[string]byte{"fin": 0x01, "syn": 0x02, "rst": 0x04, "psh": 0x08, "ack": 0x10, "urg": 0x20}

func buildIP(kind string, get func(k, def string) string, num func(string, uint64, uint64) (uint64, error)) ([]byte, error) {
	v6 := strings.HasPrefix(kind, "ipv6")
	defSrc, defDst := "10.0.0.1", "10.0.0.2"
	if v6 {
		defSrc, defDst = "fd00::1", "fd00::2"
	}
	src, err := netip.ParseAddr(get("src", defSrc))
	if err != nil {
		return nil, fmt.Errorf("packet src: %v", err)
	}
	dst, err := netip.ParseAddr(get("dst", defDst))
	if err != nil {
		return nil, fmt.Errorf("packet dst: %v", err)
	}
	if src.Is6() != v6 || dst.Is6() != v6 {
		return nil, fmt.Errorf("packet %s: address family mismatch", kind)
	}
	sport, err := num("sport", 12345, 0xffff)
	if err != nil {
		return nil, err
	}
	dport, err := num("dport", 80, 0xffff)
	if err != nil {
		return nil, err
	}
	ttl, err := num("ttl", 64, 255)
	if err != nil {
		return nil, err
	}
	plen, err := num("payload", 0, 1500)
	if err != nil {
		return nil, err
	}
	payload := make([]byte, plen)
	for i := range payload {
		payload[i] = byte(i)
	}

	var l4 []byte
	var proto byte
	switch {
	case strings.HasSuffix(kind, "-tcp"):
		proto = 6
		var flags byte
		for _, name := range strings.Split(get("flags", "syn"), "|") {
			bit, ok := tcpFlagBits[name]
			if !ok {
				return nil, fmt.Errorf("packet flags: unknown TCP flag %q", name)
			}
			flags |= bit
		}
		l4 = make([]byte, 20)
		binary.BigEndian.PutUint16(l4[0:], uint16(sport))
		binary.BigEndian.PutUint16(l4[2:], uint16(dport))
		binary.BigEndian.PutUint32(l4[4:], 1)      // seq
		l4[12] = 5 << 4                            // data offset
		l4[13] = flags                             // flags
		binary.BigEndian.PutUint16(l4[14:], 64240) // window
	case strings.HasSuffix(kind, "-udp"):
		proto = 17
		l4 = make([]byte, 8)
		binary.BigEndian.PutUint16(l4[0:], uint16(sport))
		binary.BigEndian.PutUint16(l4[2:], uint16(dport))
		binary.BigEndian.PutUint16(l4[4:], uint16(8+plen))
	case strings.HasSuffix(kind, "-icmp"):
		proto = 1
		l4 = []byte{8, 0, 0, 0, 0, 1, 0, 1} // echo request, id 1, seq 1
	}
	l4 = append(l4, payload...)

	if v6 {
		ip := make([]byte, 40)
		ip[0] = 6 << 4
		binary.BigEndian.PutUint16(ip[4:], uint16(len(l4)))
		ip[6] = proto
		ip[7] = byte(ttl)
		copy(ip[8:24], src.AsSlice())
		copy(ip[24:40], dst.AsSlice())
		return append(append(ethHeader(ethPIPv6), ip...), l4...), nil
	}
	ihl, err := num("ihl", 5, 15)
	if err != nil {
		return nil, err
	}
	if ihl < 5 {
		return nil, fmt.Errorf("packet ihl=%d: below 5", ihl)
	}
	frag, err := num("frag", 0, 0xffff)
	if err != nil {
		return nil, err
	}
	ip := make([]byte, 4*ihl)
	ip[0] = 4<<4 | byte(ihl)
	binary.BigEndian.PutUint16(ip[2:], uint16(len(ip)+len(l4)))
	binary.BigEndian.PutUint16(ip[4:], 0x1234) // id
	binary.BigEndian.PutUint16(ip[6:], uint16(frag))
	ip[8] = byte(ttl)
	ip[9] = proto
	copy(ip[12:16], src.AsSlice())
	copy(ip[16:20], dst.AsSlice())
	binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip))
	return append(append(ethHeader(ethPIPv4), ip...), l4...), nil
}

// ipChecksum is the RFC 1071 one's-complement sum of h (checksum field zero).
func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(h); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	if len(h)%2 == 1 {
		sum += uint32(h[len(h)-1]) << 8
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
