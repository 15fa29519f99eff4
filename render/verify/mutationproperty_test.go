package verify

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render"
)

// A corpusComposition is a legacy Composition of the corpus with examples,
// and its faithful conversion.
type corpusComposition struct {
	path      string
	legacy    Document
	converted map[string]any
	samples   []Sample
	xrd       map[string]any
}

// corpusWithExamples finds the corpus's legacy Compositions that have
// examples and convert, with at most three samples each.
func corpusWithExamples(t *testing.T) []corpusComposition {
	t.Helper()
	root := testutil.Corpus(t)
	fsys := os.DirFS(root)
	var out []corpusComposition
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil || !strings.Contains(string(b), "kind: Composition\n") || strings.Contains(string(b), "mode: Pipeline") {
			return nil //nolint:nilerr // An unreadable file is not a Composition.
		}
		doc := Document{Path: p, Data: b}
		lc, err := loadComposition(doc)
		if err != nil || len(jsonobj.AsList(jsonobj.Value(lc.obj, "spec", "resources"))) == 0 {
			return nil //nolint:nilerr // Not a legacy Composition.
		}
		ex, err := FindExamples(fsys, path.Dir(p), doc, nil)
		if err != nil || len(ex.Samples) == 0 {
			return nil //nolint:nilerr // No examples: nothing to verify.
		}
		conv, err := Convert(ConvertRequest{Composition: lc.src.Raw, Target: crossplane.V1})
		if err != nil {
			return nil //nolint:nilerr // The converter refuses it: nothing to mutate.
		}
		cc, err := loadComposition(Document{Path: "converted.yaml", Data: conv})
		if err != nil {
			return err
		}
		out = append(out, corpusComposition{path: p, legacy: Document{Path: p, Data: lc.src.Raw}, converted: cc.obj, samples: ex.Samples[:min(3, len(ex.Samples))], xrd: ex.XRD})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (c corpusComposition) verify(t *testing.T, converted map[string]any) (*Report, error) {
	t.Helper()
	b, err := render.MarshalYAML(converted)
	if err != nil {
		t.Fatal(err)
	}
	return Verify(context.Background(), c.legacy, Document{Path: "converted.yaml", Data: b}, c.samples, Options{XRD: c.xrd})
}

// randomMutation picks one random single edit of a converted Composition's
// patches, as a careless hand or a buggy converter makes: a key read from
// the environment or the XR renamed, a transform's value changed, a patch
// dropped, a map entry changed. It returns false when the Composition has
// nothing to edit of the kind drawn.
func randomMutation(r *rand.Rand, comp map[string]any) (string, bool) {
	in := ptInput(comp)
	var patches [][2]int
	for i, res := range jsonobj.AsList(in["resources"]) {
		rm, _ := res.(map[string]any)
		for j := range jsonobj.AsList(rm["patches"]) {
			patches = append(patches, [2]int{i, j})
		}
	}
	if len(patches) == 0 {
		return "", false
	}
	at := patches[r.IntN(len(patches))]
	rm := jsonobj.AsList(in["resources"])[at[0]].(map[string]any)
	name, _ := rm["name"].(string)
	ps := jsonobj.AsList(rm["patches"])
	p, _ := ps[at[1]].(map[string]any)
	where := fmt.Sprintf("patch %d of %q", at[1], name)
	switch r.IntN(4) {
	case 0: // Rename a key read from the environment or the XR.
		typ, _ := p["type"].(string)
		if !strings.HasPrefix(typ, "From") && !strings.HasPrefix(typ, "Combine") && typ != "" {
			return "", false
		}
		if from, ok := p["fromFieldPath"].(string); ok && !strings.HasSuffix(from, "]") {
			p["fromFieldPath"] = from + "X"
			return "rename the key read by " + where, true
		}
		vars := jsonobj.AsList(jsonobj.Value(p, "combine", "variables"))
		if len(vars) == 0 {
			return "", false
		}
		v, _ := vars[r.IntN(len(vars))].(map[string]any)
		from, _ := v["fromFieldPath"].(string)
		if from == "" || strings.HasSuffix(from, "]") {
			return "", false
		}
		v["fromFieldPath"] = from + "X"
		return "rename a variable of " + where, true
	case 1: // Change a transform's value.
		ts := jsonobj.AsList(p["transforms"])
		if len(ts) == 0 {
			if s, ok := jsonobj.Value(p, "combine", "string", "fmt").(string); ok {
				setAt(p, s+"-changed", "combine", "string", "fmt")
				return "change the format of " + where, true
			}
			return "", false
		}
		t, _ := ts[r.IntN(len(ts))].(map[string]any)
		before := jsonobj.DeepCopy(t)
		changeTransform(t)
		if jsonobj.Equal(before, t) {
			return "", false
		}
		return "change a transform of " + where, true
	case 2: // Drop the patch.
		rm["patches"] = append(append([]any(nil), ps[:at[1]]...), ps[at[1]+1:]...)
		return "drop " + where, true
	default: // Change one map entry.
		for _, tr := range jsonobj.AsList(p["transforms"]) {
			tm, _ := tr.(map[string]any)
			m, _ := tm["map"].(map[string]any)
			if len(m) == 0 {
				continue
			}
			keys := jsonobj.SortedKeys(m)
			k := keys[r.IntN(len(keys))]
			m[k] = fmt.Sprint(m[k], "-changed")
			return fmt.Sprintf("change map entry %q of %s", k, where), true
		}
		return "", false
	}
}

// differenceSet keys a report's differences with their values.
func differenceSet(r *Report) map[string]bool {
	out := map[string]bool{}
	for _, s := range r.Samples {
		for _, d := range s.Differences {
			out[differenceID(s.Sample, d)] = true
		}
	}
	return out
}

func differenceID(sample string, d Difference) string {
	l, p := d.Raw()
	if d.Aspect == AspectPresence || d.Aspect == AspectError {
		// A resource rendered on one side only, a reconcile failing on one
		// side only: which side, not what it holds or says (an error names
		// the failing patch by its index, which dropping an earlier patch
		// shifts in a resource neither side renders).
		return fmt.Sprintf("%s\x00%s\x00%v\x00%v", sample, d.Key(), l != nil, p != nil)
	}
	return fmt.Sprintf("%s\x00%s\x00%v\x00%v", sample, d.Key(), valueOf(l), valueOf(p))
}

// TestCorpusMutationProperty (issue 24, acceptance): random single edits of
// the faithful conversions of the corpus's Compositions with examples are
// never explained by a known gap. Over at least 2,000 mutants (a tenth
// with -short), every difference a mutation causes (one the faithful
// conversion does not have, values included) is unexplained, and every
// mutant that causes one is different and fails.
func TestCorpusMutationProperty(t *testing.T) {
	comps := corpusWithExamples(t)
	if len(comps) == 0 {
		t.Skip("no corpus Composition with examples")
	}
	want := testutil.Cases(2000)
	r := rand.New(rand.NewPCG(24, 1))
	mutants, differing, attributed := 0, 0, 0
	// The Compositions whose samples Verify takes.
	var bases []map[string]bool
	kept := comps[:0]
	for _, c := range comps {
		rep, err := c.verify(t, c.converted)
		if err != nil {
			continue
		}
		kept = append(kept, c)
		bases = append(bases, differenceSet(rep))
	}
	comps = kept
	for tries := 0; mutants < want && tries < want*20; tries++ {
		i := r.IntN(len(comps))
		c := comps[i]
		m := jsonobj.DeepCopy(c.converted)
		what, ok := randomMutation(r, m)
		if !ok {
			continue
		}
		mutants++
		rep, err := c.verify(t, m)
		if err != nil {
			t.Errorf("%s: %s: %v", c.path, what, err)
			continue
		}
		var caused []string
		for _, s := range rep.Samples {
			for _, d := range s.Differences {
				if bases[i][differenceID(s.Sample, d)] {
					continue
				}
				caused = append(caused, d.Title())
				if !d.Unexplained() {
					attributed++
					t.Errorf("%s: %s: %s (sample %s) is attributed to %s (proven by %v); a mutation is never a known gap", c.path, what, d.Title(), s.Sample, d.Gap.Code, d.Gap.ProvenBy)
				}
			}
		}
		if len(caused) == 0 {
			continue
		}
		differing++
		if rep.Verdict != Different || !rep.Fails(false) {
			t.Errorf("%s: %s: verdict %s (fails %v), want different; caused %s", c.path, what, rep.Verdict, rep.Fails(false), strings.Join(caused, "; "))
		}
	}
	if mutants < want {
		t.Errorf("%d mutants over %d Compositions, want %d", mutants, len(comps), want)
	}
	t.Logf("%d mutants of %d Compositions: %d differ from the faithful conversion's renders, %d differences attributed to a known gap", mutants, len(comps), differing, attributed)
}
