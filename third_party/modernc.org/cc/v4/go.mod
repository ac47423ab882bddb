module modernc.org/cc/v4

go 1.25

require (
	modernc.org/mathutil v1.7.1
	modernc.org/opt v0.2.0
	modernc.org/sortutil v1.2.1
	modernc.org/strutil v1.2.1
	modernc.org/token v1.1.0
)

require github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
