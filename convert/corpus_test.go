package convert

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
)

// corpusFile is one YAML file of the corpus.
type corpusFile struct {
	rel  string
	data []byte
}

func corpusFiles(t testing.TB) []corpusFile {
	t.Helper()
	dir := testutil.Corpus(t)
	var out []corpusFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, corpusFile{rel: filepath.ToSlash(rel), data: b})
		return nil
	})
	if err != nil {
		t.Fatalf("cannot walk %s: %v", dir, err)
	}
	return out
}

// refusals are the errors docs/semantics/conversion.md mandates for corpus Compositions that
// cannot be converted. There are none: alpha spec.functions (pruned by the
// API server from Crossplane 1.14 on) and Compositions without resources
// (kustomize bases that other files patch resources into) are converted
// with the warning C214.
var refusals = []Code{}

// TestCorpus converts every Composition of the shared corpus. Each must
// convert (or be refused for a reason docs/semantics/conversion.md mandates), every function
// input of the output must pass the function's own decoding and
// validation, and the output must convert to itself.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	var compositions, converted, refused, unchanged int
	for _, f := range files {
		res, err := Convert(f.data, Options{Source: f.rel})
		if err != nil {
			if bytes.Contains(f.data, []byte("kind: Composition\n")) {
				t.Errorf("%s: Convert(...): %v", f.rel, err)
			}
			continue
		}
		failedDocs := map[int]bool{}
		for _, d := range res.Diagnostics {
			if d.Severity != SeverityError {
				continue
			}
			failedDocs[d.Document] = true
			if !slices.Contains(refusals, d.Code) {
				t.Errorf("%s: unexpected error %s", f.rel, d)
			}
		}
		for _, d := range res.Documents {
			if d.Kind != "Composition" {
				continue
			}
			compositions++
			switch d.Status {
			case StatusConverted:
				converted++
			case StatusFailed:
				refused++
			case StatusUnchanged:
				unchanged++
			}
		}
		if res.Failed() {
			continue
		}
		checkInputs(t, f.rel, f.data, res.Output)
		if !slices.ContainsFunc(res.Diagnostics, func(d Diagnostic) bool {
			return d.Code == "C203" || d.Code == "C214" || d.Code == "C326" || d.Code == "C327"
		}) {
			checkLinesKept(t, f.rel, f.data, res.Output) // C203, C214, C326: fields dropped on purpose; C327: a format rewritten.
		}
		again, err := Convert(res.Output, Options{Source: f.rel})
		if err != nil {
			t.Errorf("%s: Convert(output): %v", f.rel, err)
			continue
		}
		if again.Changed || again.Failed() {
			t.Errorf("%s: Convert(output): not idempotent (changed %v, failed %v)\n%s", f.rel, again.Changed, again.Failed(), render(again.Diagnostics))
		}
	}
	if compositions == 0 {
		t.Fatal("no Composition found in the corpus")
	}
	t.Logf("corpus: %d files, %d Compositions: %d converted, %d unchanged, %d refused (%v only)", len(files), compositions, converted, unchanged, refused, refusals)
}

// rewritten are the input lines a conversion may rewrite: mergeOptions
// and what is in it, the environment key, the mode, the resolve policy.
// Flow collections that changed are rewritten whole.
var rewritten = regexp.MustCompile(`^(mergeOptions:|keepMapValues:|appendSlice:|environment:|mode:|resolve:|policy:)|[{\[]`)

// checkLinesKept checks that every line of the input is in the output (its
// indentation and a leading dash aside), unless it is one the conversion
// rewrites: the moved blocks are re-indented, never re-serialised.
func checkLinesKept(t *testing.T, name string, in, out []byte) {
	t.Helper()
	norm := func(l string) string { return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")) }
	have := map[string]int{}
	for _, l := range strings.Split(string(out), "\n") {
		have[norm(l)]++
	}
	for i, l := range strings.Split(string(in), "\n") {
		k := norm(l)
		switch {
		case k == "":
		case have[k] > 0:
			have[k]--
		case !rewritten.MatchString(k):
			t.Errorf("%s:%d: line lost or reformatted by the conversion: %q", name, i+1, l)
		}
	}
}

// checkInputs decodes every function input of every Pipeline Composition
// the conversion of in wrote to out as the functions do, independently of
// the converter's own output validation.
func checkInputs(t *testing.T, name string, in, out []byte) {
	t.Helper()
	for _, c := range manifest.Split(out) {
		if bytes.Contains(in, c.Text) {
			continue // Copied from the input.
		}
		j, err := manifest.JSON(c.Text)
		if err != nil {
			t.Errorf("%s:%d: output is not YAML: %v", name, c.TextLine, err)
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(j, &obj); err != nil || obj == nil {
			continue
		}
		if obj["kind"] != "Composition" {
			continue
		}
		spec, _ := obj["spec"].(map[string]any)
		if spec["mode"] != "Pipeline" {
			continue
		}
		steps, _ := spec["pipeline"].([]any)
		for _, s := range steps {
			in, _ := s.(map[string]any)["input"].(map[string]any)
			b, _ := json.Marshal(in)
			switch in["apiVersion"] {
			case PTInputAPIVersion:
				r, err := function.DecodeJSON(b)
				if err != nil {
					t.Errorf("%s:%d: function.DecodeJSON(input): %v", name, c.TextLine, err)
					continue
				}
				ferr := r.Validate()
				if ferr != nil && len(r.Resources) == 0 && ferr.Field == "resources" {
					// A base without resources (C214): PT refuses it alone at
					// run time, as Crossplane refused the original.
					continue
				}
				if ferr != nil {
					t.Errorf("%s:%d: input.Validate(): %v", name, c.TextLine, ferr)
				}
			case ECInputAPIVersion:
				if _, err := (environment.Function{Version: environment.FunctionV06}).DecodeInput(b); err != nil {
					t.Errorf("%s:%d: DecodeInput(input): %v", name, c.TextLine, err)
				}
			}
		}
	}
}

// TestCorpusTextJSON checks that manifest.JSON, with its fast reader,
// reads every document of the corpus, and of its conversion, exactly as
// sigs.k8s.io/yaml does.
func TestCorpusJSON(t *testing.T) {
	var docs int
	check := func(name string, stream []byte) {
		for _, c := range manifest.Split(stream) {
			docs++
			want, werr := sigsyaml.YAMLToJSON(c.Text)
			got, gerr := manifest.JSON(c.Text)
			if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
				t.Errorf("%s:%d: JSON(...) = %s, %v; sigs.k8s.io/yaml reads %s, %v", name, c.TextLine, got, gerr, want, werr)
			}
		}
	}
	for _, f := range corpusFiles(t) {
		check(f.rel, f.data)
		if res, err := Convert(f.data, Options{Source: f.rel}); err == nil && res.Changed {
			check(f.rel+" (converted)", res.Output)
		}
	}
	t.Logf("%d documents read", docs)
}

// TestKubectlViews checks DocumentReport.Before and After: for every
// converted Composition that is a whole document, the kubectl views of
// its input and output text, byte for byte as sigs.k8s.io/yaml gives them
// (a List's Compositions and other documents have none).
func TestKubectlViews(t *testing.T) {
	type input struct {
		name string
		data []byte
		opts Options
	}
	var inputs []input
	examples, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "input.yaml"))
	examples = append(examples, filepath.Join("testdata", "roundtrip", "input.yaml"))
	for _, e := range examples {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{e, b, Options{}}, input{e + " (v2)", b, Options{Target: crossplane.V2, XRScope: XRScopeLegacy}})
	}
	for _, f := range corpusFiles(t) {
		inputs = append(inputs, input{f.rel, f.data, Options{Source: f.rel}})
	}
	var withViews int
	for _, in := range inputs {
		res, err := Convert(in.data, in.opts)
		if err != nil {
			continue
		}
		inDocs, outDocs := manifest.Split(in.data), manifest.Split(res.Output)
		for i, d := range res.Documents {
			whole := d.Status == StatusConverted && d.Kind == "Composition"
			if !whole {
				if d.Before != nil || d.After != nil {
					t.Errorf("%s: document %d (%s, %s): Before or After set", in.name, i, d.Kind, d.Status)
				}
				continue
			}
			withViews++
			if len(inDocs) != len(outDocs) {
				t.Fatalf("%s: %d documents in, %d out", in.name, len(inDocs), len(outDocs))
			}
			for _, v := range []struct {
				what string
				got  []byte
				text []byte
			}{{"Before", d.Before, inDocs[i].Text}, {"After", d.After, outDocs[i].Text}} {
				want, err := sigsyaml.YAMLToJSON(v.text)
				if err != nil {
					t.Errorf("%s: document %d: sigs.k8s.io/yaml cannot read it: %v", in.name, i, err)
					continue
				}
				if !bytes.Equal(v.got, want) {
					t.Errorf("%s: document %d: %s:\n-%s\n+%s", in.name, i, v.what, want, v.got)
				}
			}
		}
	}
	if withViews == 0 {
		t.Fatal("no converted Composition")
	}
	t.Logf("%d converted Compositions checked", withViews)
}

// TestStepInputJSON checks that a step input cut from the document's
// kubectl view is the input's own view, on every converted document of
// the corpus and the examples.
func TestStepInputJSON(t *testing.T) {
	var streams [][]byte
	examples, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "golden.yaml"))
	for _, e := range examples {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, b)
	}
	for _, f := range corpusFiles(t) {
		if res, err := Convert(f.data, Options{Source: f.rel}); err == nil && res.Changed {
			streams = append(streams, res.Output)
		}
	}
	var inputs int
	for _, s := range streams {
		for _, ch := range manifest.Split(s) {
			d, err := yamledit.Parse(ch.Text)
			if err != nil || d == nil {
				continue
			}
			j, err := yamledit.JSON(d.Node)
			if err != nil {
				continue
			}
			c := validatePass{&composition{outputCache: outputCache{outJSON: j}}}
			steps := yamledit.Resolve(yamledit.Get(yamledit.Get(d.Top(), "spec"), "pipeline"))
			if !yamledit.IsSeq(steps) {
				continue
			}
			for i, st := range steps.Content {
				in := yamledit.Get(st, "input")
				if in == nil {
					continue
				}
				want, err := yamledit.JSON(in)
				if err != nil {
					continue
				}
				inputs++
				if got := c.stepInputJSON(i); !bytes.Equal(got, want) {
					t.Errorf("line %d, step %d: stepInputJSON(...):\n-%s\n+%s", ch.TextLine, i, want, got)
				}
			}
		}
	}
	if inputs == 0 {
		t.Fatal("no step input found")
	}
}
