package migrate

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestMigrateCorpusV2Proof migrates a copy of the corpus with --target v2
// (v2-native, definitions and twins, verification on) and pins the
// verdicts of the proof: how many Compositions verify as
// equivalent-up-to-mapping, with known gaps, different, and so on. A
// change that makes the converter's declared mapping and verify's composer
// rules disagree moves Compositions out of equivalent-up-to-mapping; one
// that explains more moves them in: either way the counts here are updated
// on purpose, with the reason in the commit.
//
// It also checks that no unexplained difference is at a field the mapping
// is about (the composed resources' type, namespace, providerConfigRef
// kind, management policies, claim labels, owner, the connection Secret,
// spec.crossplane of the XR): those are the converter's edits and verify's
// composer rules, which must agree.
func TestMigrateCorpusV2Proof(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus migration takes a while")
	}
	root := filepath.Join(t.TempDir(), "corpus")
	copyTree(t, testutil.Corpus(t), root)
	res, err := Run(context.Background(), Options{
		Root:        root,
		Target:      crossplane.V2,
		Definitions: true,
		Converter:   NewConverter(convert.Options{}),
		Verifier:    NewVerifier(false),
		Verify:      true,
		Force:       true,
		Jobs:        runtime.NumCPU(),
	})
	if err != nil {
		t.Fatalf("Run(...): %v", err)
	}
	got := map[string]int{}
	var mappingFields []string
	for _, c := range res.Compositions {
		got["composition "+string(c.Status)]++
		if c.Verification == nil {
			continue
		}
		got["verification "+string(c.Verification.Status)]++
		// A deletionPolicy patch in a patch set other templates share is
		// flagged (C450), not rewritten: the v2 render still writes
		// spec.deletionPolicy until the user edits the patch set.
		flagged := slices.ContainsFunc(c.Diagnostics, func(d Diagnostic) bool { return d.Code == "C450" })
		for _, s := range c.Verification.Samples {
			for _, d := range s.Differences {
				if flagged && strings.HasSuffix(d.Path, "].spec.deletionPolicy") {
					continue
				}
				if d.Code == "" && mappingField(d.Path) {
					mappingFields = append(mappingFields, c.File+" "+s.Source+" "+d.Path)
				}
			}
		}
	}
	// The counts of 2026-11-26 (h-v2fix): see the closing note of
	// issue 17 for the breakdown of the differences left.
	// Issue 25 item 2: two Compositions of classic provider-azure kinds
	// (azure.crossplane.io ResourceGroup and others, no spec.forProvider)
	// are refused (C448, by the built-in table of provider families):
	// upbound__platform-ref-azure's xnetworks and
	// vfarcic__devops-toolkit-crossplane's cluster-azure, whose
	// verifications (one different, one error) no longer run.
	// Issue 24: a known gap explains a difference only when the
	// counterfactual render proves it; three samples' gaps are not proven
	// that way (no switch reproduces their consequences), so three
	// known-gaps verdicts became different (fails either way).
	want := map[string]int{
		"composition converted":                 91,
		"composition failed":                    111,
		"verification equivalent-up-to-mapping": 34,
		"verification known-gaps":               8,
		"verification different":                16,
		"verification unverified":               32,
		"verification error":                    1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("corpus --target v2 verdicts: -want, +got:\n%s", diff)
	}
	sort.Strings(mappingFields)
	if len(mappingFields) > 0 {
		t.Errorf("unexplained differences at fields the v2 mapping is about (the converter's ops and verify's composer rules disagree):\n  %s", strings.Join(mappingFields, "\n  "))
	}
}

// mappingField reports whether a difference path (resource[name].path,
// xr.path, presence[name]) is at a field the v2 mapping is about.
func mappingField(p string) bool {
	_, field, ok := strings.Cut(p, "].")
	if strings.HasPrefix(p, "xr.") {
		field, ok = strings.TrimPrefix(p, "xr."), true
	}
	if !ok {
		return false
	}
	for _, f := range []string{
		"apiVersion", "kind", "metadata.namespace", "metadata.labels[crossplane.io/", "metadata.ownerReferences",
		"spec.providerConfigRef.kind", "spec.managementPolicies", "spec.deletionPolicy",
		"spec.writeConnectionSecretToRef", "spec.publishConnectionDetailsTo", "spec.crossplane.composition",
		"spec.claimRef",
	} {
		if field == f || strings.HasPrefix(field, f) {
			return true
		}
	}
	return false
}
