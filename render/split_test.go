package render

import (
	"bufio"
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// splitByScanner is how SplitDocuments read its input before it scanned the
// bytes in place: bufio.Scanner's lines (a final "\r" dropped), each
// written back with "\n".
func splitByScanner(b []byte) []Document {
	var docs []Document
	var cur bytes.Buffer
	start, line := 1, 0
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(make([]byte, 0, 64*1024), len(b)+1)
	flush := func(next int) {
		docs = append(docs, Document{Index: len(docs), Line: start, Raw: append([]byte(nil), cur.Bytes()...)})
		cur.Reset()
		start = next
	}
	for s.Scan() {
		line++
		text := s.Text()
		if isSeparator([]byte(text)) {
			if line == 1 || (len(docs) == 0 && isBlank(cur.Bytes())) {
				cur.Reset()
				start = line + 1
				continue
			}
			flush(line + 1)
			continue
		}
		cur.WriteString(text)
		cur.WriteByte('\n')
	}
	flush(line + 1)
	return docs
}

func FuzzSplitDocuments(f *testing.F) {
	for _, s := range []string{"", "\n", "a: 1", "---\na: 1\n---\nb: 2\n", "# c\n---\r\na: 1\r\n--- x\nb", "a\r\r\n---\t\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if diff := cmp.Diff(splitByScanner(b), SplitDocuments(b)); diff != "" {
			t.Fatalf("SplitDocuments(%q): -scanner, +in place:\n%s", b, diff)
		}
	})
}

func TestSplitDocumentsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	parts := []string{"---", "--- # x", "---\t", "----", "a: 1", "# c", "", " ", "\r", "b", "...", "---x"}
	n := testutil.Cases(20000)
	for i := 0; i < n; i++ {
		var lines []string
		for j := rng.Intn(8); j > 0; j-- {
			lines = append(lines, parts[rng.Intn(len(parts))])
		}
		sep := "\n"
		if rng.Intn(4) == 0 {
			sep = "\r\n"
		}
		b := []byte(strings.Join(lines, sep))
		if rng.Intn(2) == 0 {
			b = append(b, sep...)
		}
		if diff := cmp.Diff(splitByScanner(b), SplitDocuments(b)); diff != "" {
			t.Fatalf("SplitDocuments(%q): -scanner, +in place:\n%s", b, diff)
		}
	}
}
