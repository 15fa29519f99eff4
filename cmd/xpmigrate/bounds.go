package main

import (
	"strconv"
	"strings"

	"github.com/pkg/errors"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// Bounds of the input bounds themselves (docs/safety.md).
const (
	maxMaxDepth    = 10000     // --max-depth: the API server's own limit
	minMaxFileSize = 1 << 10   // --max-file-size: 1Ki
	maxMaxFileSize = 16 << 30  // --max-file-size: 16Gi
	minMaxObjects  = 1         // --max-objects
	maxMaxObjects  = 1_000_000 // --max-objects

	// defaultMaxObjects is plan v2 --from's bound on the objects of the
	// exports: a platform of 20,000 XRs, claims and managed resources.
	defaultMaxObjects = 20_000
)

// inputBounds are the global flags that bound every reader of the run.
type inputBounds struct {
	maxDepth    int
	maxFileSize byteSize
}

// addInputBoundFlags defines --max-depth and --max-file-size on every
// command.
func addInputBoundFlags(f *pflag.FlagSet, b *inputBounds) {
	b.maxFileSize = manifest.DefaultMaxFileSize
	f.IntVar(&b.maxDepth, "max-depth", manifest.DefaultMaxDepth, "refuse a document whose maps and lists nest deeper than this (1–10000; the API server refuses more than 10000)")
	f.Var(&b.maxFileSize, "max-file-size", "refuse (or, for migrate, skip) a file or stream larger than this, before parsing it: bytes, or with a Ki, Mi or Gi suffix (1Ki–16Gi)")
}

// apply checks the bounds and sets them for every reader of the run (the
// process: the readers of every package apply manifest.CurrentLimits); the
// returned function restores the previous ones.
func (b *inputBounds) apply() (func(), error) {
	if err := inRange("max-depth", b.maxDepth, 1, maxMaxDepth); err != nil {
		return nil, err
	}
	if b.maxFileSize < minMaxFileSize || b.maxFileSize > maxMaxFileSize {
		return nil, errkind.InvalidInputf("--max-file-size must be between 1Ki and 16Gi, not %s", b.maxFileSize.String())
	}
	return manifest.SetLimits(manifest.Limits{MaxDepth: b.maxDepth, MaxFileSize: int64(b.maxFileSize)}), nil
}

// byteSize is a flag of a size in bytes: an integer, or one with a binary
// suffix (Ki, Mi, Gi).
type byteSize int64

var byteSuffixes = []struct {
	suffix string
	factor int64
}{{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}}

func (b *byteSize) String() string {
	for _, s := range byteSuffixes {
		if int64(*b) >= s.factor && int64(*b)%s.factor == 0 {
			return strconv.FormatInt(int64(*b)/s.factor, 10) + s.suffix
		}
	}
	return strconv.FormatInt(int64(*b), 10)
}

func (b *byteSize) Set(v string) error {
	factor := int64(1)
	num := v
	for _, s := range byteSuffixes {
		if strings.HasSuffix(v, s.suffix) {
			factor, num = s.factor, strings.TrimSuffix(v, s.suffix)
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/factor {
		return errors.Errorf("%q is not a size: give bytes, or a number with Ki, Mi or Gi", v)
	}
	*b = byteSize(n * factor)
	return nil
}

func (b *byteSize) Type() string { return "bytes" }
