package convert

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// FuzzConvert checks that Convert never panics, and that whatever it
// returns is either a clean error or YAML that parses again, document by
// document. Seeds are the examples and the round-trip file.
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
			opts.Target = TargetV2
		}
		res, err := Convert(in, opts)
		if err != nil {
			if !IsInvalidInput(err) {
				t.Fatalf("Convert(...): an error that is not an InputError: %v", err)
			}
			return
		}
		for _, c := range yamledit.Split(res.Output) {
			if _, err := yamledit.Parse(c.Text); err != nil {
				t.Fatalf("Convert(...): output document at line %d is not YAML: %v\n%s", c.Line, err, res.Output)
			}
		}
		if res.Failed() && string(res.Output) != string(in) {
			t.Fatalf("Convert(...): failed, but changed its input")
		}
	})
}
