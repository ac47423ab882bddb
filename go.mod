module github.com/bpfcc/bpfcc

go 1.26.8

require (
	github.com/cilium/ebpf v0.22.0
	github.com/go-delve/delve v1.27.2
	golang.org/x/arch v0.33.0
	golang.org/x/sys v0.50.0
	modernc.org/cc/v4 v4.34.1
	modernc.org/token v1.1.0
)

require (
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/opt v0.2.0 // indirect
	modernc.org/sortutil v1.2.1 // indirect
	modernc.org/strutil v1.2.1 // indirect
)

replace modernc.org/cc/v4 => ./third_party/modernc.org/cc/v4
