package tree

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// tooLarge returns the skip reason and detail of a file refused by its
// size (err, a *regularfile.TooLargeError), and whether it mentions a
// Composition not in Pipeline mode: such a file fails the run (a gate
// must not pass on what it could not read), any other is skipped. The
// file is read once, line by line, in constant memory, and never parsed.
func tooLarge(path string, err error) (reason, detail string, legacy bool) {
	detail = err.Error()
	var tl *regularfile.TooLargeError
	if errors.As(err, &tl) {
		// The path is the report's, relative to the root.
		detail = fmt.Sprintf("larger than the limit of %d bytes (--max-file-size): not read", tl.Limit)
		if tl.Size >= 0 {
			detail = fmt.Sprintf("%d bytes, ", tl.Size) + detail
		}
	}
	return ReasonTooLarge, detail, mentionsLegacy(path)
}

// mentionsLegacy reports whether the file at path has a `kind:
// Composition` line and no `mode: Pipeline` line, reading it line by line
// (lines longer than 64 KiB are not looked at: neither line is that
// long). A file that cannot be read counts as mentioning one.
func mentionsLegacy(path string) bool {
	f, err := regularfile.Open(path)
	if err != nil {
		return true
	}
	defer f.Close() //nolint:errcheck // Read-only.
	return ScanLegacy(f)
}

// ScanLegacy is mentionsLegacy for a stream.
func ScanLegacy(r io.Reader) bool {
	const maxLine = 64 << 10
	br := bufio.NewReaderSize(r, maxLine)
	comp, pipeline, long := false, false, false
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = true
			continue
		case long:
			// The tail of a line too long to look at.
			long = false
		case len(line) > 0:
			// Most lines hold neither word: the regular expressions run
			// only on those that do.
			if !comp && bytes.Contains(line, []byte("kind")) {
				comp = KindComp.Match(bytes.TrimRight(line, "\r\n"))
			}
			if !pipeline && bytes.Contains(line, []byte("mode")) {
				pipeline = modePipeline.Match(bytes.TrimRight(line, "\r\n"))
			}
		}
		if err != nil {
			return comp && !pipeline
		}
	}
}

// BlobFits reports whether a blob of the size `git ls-tree -l` printed is
// within the readers' file size bound (manifest.Limits.MaxFileSize): a
// larger one is not read from git at all.
func BlobFits(size string) bool {
	n, err := strconv.ParseInt(size, 10, 64)
	return err == nil && n <= manifest.CurrentLimits().MaxFileSize
}
