package migrate

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// copyTree copies every regular file of src to dst.
func copyTree(t testing.TB, src, dst string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(b)
		q := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(q), 0o755); err != nil {
			return err
		}
		return os.WriteFile(q, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestMigrateCorpus migrates a copy of every repository of the corpus (testutil.Corpus)
// with the real converter and verifier.
func TestMigrateCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus migration takes a while")
	}
	src := testutil.Corpus(t)
	root := filepath.Join(t.TempDir(), "corpus")
	before := copyTree(t, src, root)

	res, err := Run(context.Background(), Options{
		Root:      root,
		Converter: NewConverter(convert.Options{}),
		Verifier:  NewVerifier(false),
		Verify:    true,
		// Conversions with breaking gaps are written too: this test is
		// about what the converter does with every Composition.
		Force: true,
		Jobs:  runtime.NumCPU(),
	})
	if err != nil {
		t.Fatalf("Run(...): %v", err)
	}
	after := readTree(t, root)

	// Nothing else touched: the same files, no temporary ones, and every
	// file that is not converted byte-identical.
	if got, want := sortedKeys(after), sortedKeys(before); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files after the run differ from before: %d before, %d after; leftovers %v", len(want), len(got), leftovers(t, root))
	}
	status := map[string]FileResult{}
	for _, f := range res.Files {
		status[f.Path] = f
	}
	for _, p := range sortedKeys(before) {
		f, ok := status[p]
		if (!ok || f.Status != FileConverted) && before[p] != after[p] {
			t.Errorf("%s: not converted (%s) but changed", p, f.Status)
		}
	}

	// Every legacy Composition converted, unless the converter refuses it
	// with an error the converter defines (docs/reference/diagnostics.md C1xx: input native
	// Crossplane rejected too, or with no automatic mapping). A refused
	// Composition's file is left as it was and the leftover reported.
	legacy, converted, refused := 0, 0, 0
	leftover := map[string]bool{}
	for _, f := range res.Findings {
		if f.Code == "M402" {
			leftover[fmt.Sprintf("%s#%d", f.File, f.Document)] = true
		}
	}
	for _, c := range res.Compositions {
		if !c.Legacy {
			continue
		}
		legacy++
		at := fmt.Sprintf("%s#%d", c.File, c.Document)
		switch {
		case c.Status == CompositionConverted:
			converted++
		case c.Status == CompositionFailed && refusedBySpec(c.Diagnostics):
			refused++
			t.Logf("%s %s: refused: %s", at, c.Name, diagText(c.Diagnostics))
			if !leftover[at] {
				t.Errorf("%s %s: refused, but no M402 leftover finding", at, c.Name)
			}
		default:
			t.Errorf("%s %s: status %s, want converted: %s", at, c.Name, c.Status, diagText(c.Diagnostics))
		}
	}
	for _, f := range res.Files {
		switch {
		case f.Status == FileFailed && f.Reason == ReasonConversionError:
			// Every Composition in it was refused (checked above).
		case f.Status == FileFailed:
			t.Errorf("%s: failed: %s (%s)", f.Path, f.Reason, f.Detail)
		case f.Status == FileSkipped:
			t.Logf("%s: skipped: %s", f.Path, f.Reason)
		}
	}

	// Every document that is not a Composition byte-identical; every
	// comment of a Composition kept.
	for _, f := range res.Files {
		if f.Status != FileConverted {
			continue
		}
		b, a := manifest.Split([]byte(before[f.Path])), manifest.Split([]byte(after[f.Path]))
		if len(b) != len(a) {
			t.Errorf("%s: %d documents before, %d after", f.Path, len(b), len(a))
			continue
		}
		for i := range b {
			obj, _ := b[i].Decode()
			if obj == nil || !tree.IsComposition(jsonobj.AsString(obj["apiVersion"]), jsonobj.AsString(obj["kind"])) {
				if string(b[i].Raw) != string(a[i].Raw) {
					t.Errorf("%s#%d: not a Composition, but changed", f.Path, i)
				}
				continue
			}
			if missing := missingComments(t, b[i].Raw, a[i].Raw); len(missing) > 0 {
				t.Errorf("%s#%d: comments lost: %q", f.Path, i, missing)
			}
		}
	}

	// Every conversion with examples verified, or its differences
	// classified.
	verified, gaps, unverified := 0, 0, 0
	seen := map[string]bool{}
	for _, c := range res.Compositions {
		v := c.Verification
		if c.Status != CompositionConverted || v == nil {
			continue
		}
		at := fmt.Sprintf("%s#%d", c.File, c.Document)
		switch v.Status {
		case VerifyEquivalent:
			verified++
		case VerifyKnownGaps:
			gaps++
		case VerifyUnverified:
			unverified++
		default:
			if why, ok := corpusVerifyIssues[at]; ok {
				seen[at] = true
				t.Logf("%s %s: verification %s, a known issue outside the migrator (%s): %s", at, c.Name, v.Status, why, verificationText(v))
				continue
			}
			t.Errorf("%s %s: verification %s: %s", at, c.Name, v.Status, verificationText(v))
		}
	}
	for at := range corpusVerifyIssues {
		if !seen[at] {
			t.Errorf("%s: listed in corpusVerifyIssues but verified: remove it from the list", at)
		}
	}
	t.Logf("corpus: %d files (%d converted, %d skipped), %d legacy Compositions: %d converted, %d refused; verification: %d equivalent, %d known gaps only, %d without examples, %d known issues; skipped by reason %v",
		res.Summary.Files, res.Summary.Converted, res.Summary.Skipped, legacy, converted, refused, verified, gaps, unverified, len(seen), res.Summary.SkippedBy)
}

// corpusVerifyIssues are the corpus conversions whose verification finds
// differences the equivalence check (render/verify) does not classify yet.
// They are problems of the check, not of the migration, and each is
// reported to its owner; the test fails when one of them goes away, so the
// list shrinks as they are fixed.
var corpusVerifyIssues = map[string]string{
	// Since attribution is proven by counterfactual render (issue 24), a
	// known gap explains a difference only when the render with the gap's
	// switch makes it disappear. These four carry a real legacy quirk
	// whose consequences no switch reproduces yet, so their differences
	// stay unexplained (with the candidate named, "unproven") and the gate
	// fails them, as it should for what is not proven.
	"awslabs__crossplane-on-eks/compositions/upbound-aws-provider/kinesis-data-firehose-app/log-forwarder.yaml#0": "D35 environmentConfigRefs bookkeeping: no switch",
	"ionos-cloud__crossplane-provider-ionoscloud/examples/server-composition/composition.yaml#0":                  "D7 patches reading resourceRefs by position: no switch",
	"upbound__configuration-vault/apis/vault/composition.yaml#0":                                                  "D46: legacy records resourceRefs before it fails; the counterfactual fails without them",
	"upbound__platform-ref-aws/package/cluster/composition.yaml#0":                                                "D46: legacy records resourceRefs before it fails; the counterfactual fails without them",
}

// refusedBySpec reports whether a Composition was refused with a
// conversion error the converter defines (C1xx, docs/reference/diagnostics.md).
func refusedBySpec(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError && strings.HasPrefix(d.Code, "C1") {
			return true
		}
	}
	return false
}

func diagText(ds []Diagnostic) string {
	var parts []string
	for _, d := range ds {
		if d.Severity == SeverityError {
			parts = append(parts, fmt.Sprintf("%s %s: %s", d.Code, d.Path, d.Message))
		}
	}
	return strings.Join(parts, "; ")
}

func verificationText(v *Verification) string {
	var parts []string
	if v.Error != "" {
		parts = append(parts, v.Error)
	}
	for _, s := range v.Samples {
		if s.Error != "" {
			parts = append(parts, s.Source+": "+s.Error)
		}
		for _, d := range s.Differences {
			if d.Code == "" {
				parts = append(parts, fmt.Sprintf("%s: %s: legacy %q, pipeline %q", s.Source, d.Path, d.Legacy, d.Pipeline))
			}
		}
	}
	if len(parts) > 5 {
		parts = append(parts[:5], fmt.Sprintf("… and %d more", len(parts)-5))
	}
	return strings.Join(parts, "; ")
}

// missingComments returns the comments of before that after lacks.
func missingComments(t *testing.T, before, after []byte) []string {
	t.Helper()
	want, got := comments(before), comments(after)
	have := map[string]int{}
	for _, c := range got {
		have[c]++
	}
	var missing []string
	for _, c := range want {
		if have[c] == 0 {
			missing = append(missing, c)
			continue
		}
		have[c]--
	}
	sort.Strings(missing)
	return missing
}

// comments returns every comment line of a YAML document, as yaml.v3
// attaches them to nodes.
func comments(doc []byte) []string {
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil {
		return nil
	}
	var out []string
	var visit func(*yaml.Node)
	visit = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					out = append(out, l)
				}
			}
		}
		for _, k := range n.Content {
			visit(k)
		}
	}
	visit(&n)
	return out
}
