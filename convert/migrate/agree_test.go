package migrate

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// TestScannersAgreeOnLegacy is issue 23 item 5c: migrate's scan and the
// converter agree on whether a file holds a legacy Composition, whatever
// its encoding or document layout (both read it through manifest.Text and
// manifest.Split). Before, a Composition on the `---` line or in UTF-16
// LE passed migrate --check while convert --check would change it.
func TestScannersAgreeOnLegacy(t *testing.T) {
	comp := heldBackRepo["apis/composition.yaml"]
	obj, err := manifest.DecodeObject([]byte(comp))
	if err != nil {
		t.Fatal(err)
	}
	flow, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	utf16Of := func(s string, order binary.AppendByteOrder, bom []byte) []byte {
		out := append([]byte(nil), bom...)
		for _, u := range utf16.Encode([]rune(s)) {
			out = order.AppendUint16(out, u)
		}
		return out
	}
	cases := map[string]struct {
		reason string
		file   string
		data   []byte
	}{
		"Plain":         {reason: "The plain layout.", file: "c.yaml", data: []byte(comp)},
		"UTF8BOM":       {reason: "A UTF-8 byte order mark is dropped.", file: "c.yaml", data: append([]byte{0xef, 0xbb, 0xbf}, comp...)},
		"UTF16LE":       {reason: "UTF-16 little endian with its byte order mark.", file: "c.yaml", data: utf16Of(comp, binary.LittleEndian, []byte{0xff, 0xfe})},
		"UTF16BE":       {reason: "UTF-16 big endian with its byte order mark.", file: "c.yaml", data: utf16Of(comp, binary.BigEndian, []byte{0xfe, 0xff})},
		"FlowOnDocLine": {reason: "A flow mapping on the document start line.", file: "c.yaml", data: []byte("--- " + string(flow) + "\n")},
		"TagOnDocLine":  {reason: "A tag on the document start line, the mapping below.", file: "c.yaml", data: []byte("--- !!map\n" + comp)},
		"AfterOther":    {reason: "A second document whose content starts on its `---` line.", file: "c.yaml", data: []byte("a: 1\n--- " + string(flow) + "\n")},
		"Directive":     {reason: "A %YAML directive before the document.", file: "c.yaml", data: []byte("%YAML 1.1\n---\n" + comp)},
		"CRLF":          {reason: "CRLF line breaks.", file: "c.yaml", data: []byte(strings.ReplaceAll(comp, "\n", "\r\n"))},
		"JSON":          {reason: "A JSON file.", file: "c.json", data: flow},
		"JSONBOM":       {reason: "A JSON file with a UTF-8 byte order mark.", file: "c.json", data: append([]byte{0xef, 0xbb, 0xbf}, flow...)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			type verdict struct{ Convert, Migrate int }
			got := verdict{}
			res, err := convert.Convert(tc.data, convert.Options{Source: tc.file})
			if err != nil {
				t.Fatalf("%s\nconvert.Convert(...): %v", tc.reason, err)
			}
			for _, d := range res.Documents {
				if d.Status == convert.StatusConverted {
					got.Convert++
				}
			}
			s := &tree.Scanned{Entry: tree.Entry{Rel: tc.file, Kind: tree.EntryCandidate}, Format: tree.FormatOf(tc.file)}
			s.Classify(tc.data)
			if s.Reason != "" {
				t.Fatalf("%s\nclassify(...): skipped: %s: %s", tc.reason, s.Reason, s.Detail)
			}
			for _, d := range s.Docs {
				if tree.IsComposition(d.APIVersion, d.Kind) && tree.IsLegacy(d.Obj) {
					got.Migrate++
				}
			}
			if diff := cmp.Diff(verdict{Convert: 1, Migrate: 1}, got); diff != "" {
				t.Errorf("%s\nlegacy Compositions found: -want, +got:\n%s", tc.reason, diff)
			}
			if !res.Changed || bytes.Equal(res.Output, tc.data) {
				t.Errorf("%s\nconvert.Convert(...): the output does not change", tc.reason)
			}
		})
	}
}
