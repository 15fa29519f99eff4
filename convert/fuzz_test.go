package convert

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// FuzzConvert checks that Convert never panics, and that whatever it
// returns is either a clean error or YAML that parses again, document by
// document. Seeds are the examples and the round-trip file.
// mentionsComposition matches a document that names kind Composition anywhere, the
// widest net for what the converter may rewrite.
var mentionsComposition = regexp.MustCompile(`(?m)Composition`)

func FuzzConvert(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "examples", "*", "input.yaml"))
	seeds = append(seeds, filepath.Join("testdata", "roundtrip", "input.yaml"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Add([]byte("apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nspec:\n  resources:\n  -\n"), true)
	f.Add([]byte("kind: Composition\napiVersion: apiextensions.crossplane.io/v1\nspec: {resources: [{base: {}, patches: [{transforms: [{type: string, string: null}]}]}]}\n"), false)
	f.Fuzz(func(t *testing.T, in []byte, v2 bool) {
		opts := Options{Source: "fuzz.yaml"}
		if v2 {
			opts.Target, opts.XRScope = crossplane.V2, XRScopeLegacy
		}
		res, err := Convert(in, opts)
		if err != nil {
			if !IsInvalidInput(err) {
				t.Fatalf("Convert(...): an error that is not an InputError: %v", err)
			}
			return
		}
		outDocs := manifest.Split(res.Output)
		for _, c := range outDocs {
			if _, err := yamledit.Parse(c.Text); err != nil {
				t.Fatalf("Convert(...): output document at line %d is not YAML: %v\n%s", c.TextLine, err, res.Output)
			}
		}
		if res.Failed() {
			if string(res.Output) != string(in) {
				t.Fatalf("Convert(...): failed, but changed its input")
			}
			return
		}
		// Every document that is not a Composition survives byte for byte,
		// in its place.
		inDocs := manifest.Split(in)
		if len(inDocs) != len(outDocs) {
			t.Fatalf("Convert(...): %d documents in, %d out", len(inDocs), len(outDocs))
		}
		if string(inDocs[0].Lead) != string(outDocs[0].Lead) {
			t.Fatalf("Convert(...): the comments before the first document changed:\n-%q\n+%q", inDocs[0].Lead, outDocs[0].Lead)
		}
		for i := range inDocs {
			if !mentionsComposition.Match(inDocs[i].Text) && string(inDocs[i].Text) != string(outDocs[i].Text) {
				t.Fatalf("Convert(...): document %d is not a Composition but changed:\n-%q\n+%q", i, inDocs[i].Text, outDocs[i].Text)
			}
		}
		// Converting the output again changes nothing.
		again, err := Convert(res.Output, opts)
		if err != nil || again.Failed() {
			t.Fatalf("Convert(Convert(...)): %v %v\n%s", err, again.Diagnostics, res.Output)
		}
		if string(again.Output) != string(res.Output) {
			t.Fatalf("Convert(...) is not idempotent:\n-%q\n+%q", res.Output, again.Output)
		}
	})
}
