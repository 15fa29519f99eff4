package migrate

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// tooLarge returns the skip reason and detail of a file refused by its
// size (err, a *regularfile.TooLargeError), and whether it mentions a
// Composition not in Pipeline mode: such a file fails the run (a gate
// must not pass on what it could not read), any other is skipped. The
// file is read once, line by line, in constant memory, and never parsed.
func tooLarge(path string, err error) (reason, detail string, legacy bool) {
	return ReasonTooLarge, err.Error(), mentionsLegacy(path)
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
	return scanLegacy(f)
}

// scanLegacy is mentionsLegacy for a stream.
func scanLegacy(r io.Reader) bool {
	const maxLine = 64 << 10
	br := bufio.NewReaderSize(r, maxLine)
	comp, pipeline, long := false, false, false
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			long = true
			continue
		case long:
			// The tail of a line too long to look at.
			long = false
		case len(line) > 0:
			line = bytes.TrimRight(line, "\r\n")
			comp = comp || kindComp.Match(line)
			pipeline = pipeline || modePipeline.Match(line)
		}
		if err != nil {
			return comp && !pipeline
		}
	}
}

// blobFits reports whether a blob of the size `git ls-tree -l` printed is
// within the readers' file size bound (manifest.Limits.MaxFileSize): a
// larger one is not read from git at all.
func blobFits(size string) bool {
	n, err := strconv.ParseInt(size, 10, 64)
	return err == nil && n <= manifest.CurrentLimits().MaxFileSize
}
