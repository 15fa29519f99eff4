package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestRoundTrip converts a file that mixes comments, anchors and aliases,
// odd quoting, block scalars, empty and comment-only documents, a `...`
// marker and a List, and checks that every byte outside the rewritten
// Compositions is kept: the other documents byte for byte, the List
// around its Composition item, the Composition's own header, metadata and
// top-level fields, and its templates' bases (re-indented only).
func TestRoundTrip(t *testing.T) {
	dir := filepath.Join("testdata", "roundtrip")
	in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Convert(in, Options{Source: "input.yaml"})
	if err != nil {
		t.Fatalf("Convert(...): %v", err)
	}
	if res.Failed() {
		t.Fatalf("Convert(...): failed:\n%s", render(res.Diagnostics))
	}
	testutil.Golden(t, filepath.Join(dir, "golden.yaml"), res.Output)

	inDocs, outDocs := manifest.Split(in), manifest.Split(res.Output)
	if len(inDocs) != len(outDocs) {
		t.Fatalf("Convert(...): %d documents in, %d out", len(inDocs), len(outDocs))
	}
	// The header comment before the first `---` belongs to no document
	// (it is the first document's Lead) and is kept byte for byte.
	if want := "# Platform bundle: keep this header\n"; string(inDocs[0].Lead) != want || string(outDocs[0].Lead) != want {
		t.Errorf("the header before the first document: want %q kept, got %q in, %q out", want, inDocs[0].Lead, outDocs[0].Lead)
	}
	wantStatus := []Status{StatusSkipped, StatusSkipped, StatusConverted, StatusConverted, StatusSkipped}
	var gotStatus []Status
	for _, d := range res.Documents {
		gotStatus = append(gotStatus, d.Status)
	}
	if diff := cmp.Diff(wantStatus, gotStatus); diff != "" {
		t.Errorf("Convert(...) statuses: -want, +got:\n%s", diff)
	}
	for i := range inDocs {
		if res.Documents[i].Status == StatusSkipped && !bytes.Equal(inDocs[i].Text, outDocs[i].Text) {
			t.Errorf("document %d: not a Composition, but changed:\n-%q\n+%q", i, inDocs[i].Text, outDocs[i].Text)
		}
	}

	// The Composition document: everything up to its first rewritten
	// entry, and each base, are kept.
	comp, out := string(inDocs[2].Text), string(outDocs[2].Text)
	head := comp[:strings.Index(comp, "\n  # Shared patches")]
	if !strings.HasPrefix(out, head) {
		t.Errorf("the Composition's header, metadata and kept spec fields changed:\n%s", cmp.Diff(head, out[:min(len(out), len(head))]))
	}
	for _, base := range []string{
		"base:\n  apiVersion: rds.aws.upbound.io/v1beta1\n  kind: Instance\n  metadata:\n    labels: *labels\n  spec:\n    forProvider:\n      engine: 'postgres'\n      engineVersion: \"15\"        # a string, not a number\n      allocatedStorage: 20\n      dbName: ''\n      tags: {a: \"b\", 'c': d}\n",
		"map:\n  small: db.t3.micro     # cheapest\n  large: \"db.r6g.xlarge\"\n",
		"readinessChecks: []\n\n",
		"patches: [*regionPatch]\n",
	} {
		if !strings.Contains(relativeIndent(out), base) {
			t.Errorf("the Composition lost, or reformatted, this block:\n%s", base)
		}
	}

	// The List: the items around the Composition are kept.
	list, outList := string(inDocs[3].Text), string(outDocs[3].Text)
	start := strings.Index(list, "- apiVersion: apiextensions.crossplane.io/v1")
	end := strings.Index(list, "- apiVersion: v1\n  kind: Secret")
	if !strings.HasPrefix(outList, list[:start]) || !strings.HasSuffix(outList, list[end:]) {
		t.Errorf("the List changed outside its Composition item:\n%s", cmp.Diff(list, outList))
	}
}

// relativeIndent rewrites each line relative to the nearest preceding
// line that opens one of the blocks checked above (`base:`, `map:`, …), so
// that a block moved to another depth compares equal to the original.
func relativeIndent(s string) string {
	var b strings.Builder
	anchor := 0
	for _, l := range strings.Split(s, "\n") {
		ind := len(l) - len(strings.TrimLeft(l, " "))
		t := strings.TrimLeft(l, " -")
		for _, k := range []string{"base:", "map:", "readinessChecks:", "patches:"} {
			if strings.HasPrefix(t, k) {
				anchor = len(l) - len(t)
			}
		}
		switch {
		case l == "":
		case ind >= anchor:
			b.WriteString(l[anchor:])
		default:
			b.WriteString(strings.TrimLeft(l, " "))
		}
		b.WriteString("\n")
	}
	return b.String()
}
