package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestExamples runs every before→after example of docs/semantics/conversion.md#examples as a
// golden test: testdata/examples/<case>/input.yaml is converted, and the
// output must match golden.yaml and the findings diagnostics.golden. Each
// case runs twice (the output must be byte-identical), and the output of
// a converted case must convert to itself. Unless a row says otherwise the
// target is v2, as in docs/semantics/conversion.md#examples.
func TestExamples(t *testing.T) {
	v2 := Options{Target: crossplane.V2, XRScope: XRScopeLegacy}
	cases := map[string]struct {
		reason     string
		opts       Options
		want       []Code
		wantFailed bool
	}{
		"e01-minimal":                   {reason: "E1: mode absent; mode: Pipeline goes before pipeline, which takes the place of resources", opts: v2},
		"e02-explicit-mode":             {reason: "E2: mode replaced in place, its comment and spacing kept; labels and other fields kept", opts: v2},
		"e03-unnamed":                   {reason: "E3: unnamed templates get resource-<i> names and C204", opts: v2, want: []Code{"C204"}},
		"e03-unnamed-kind":              {reason: "E3: --name-strategy=kind gives <kind>-<i>", opts: Options{Target: crossplane.V2, XRScope: XRScopeLegacy, NameStrategy: NameByKind}, want: []Code{"C204"}},
		"e03-unnamed-phase1":            {reason: "E3: the phase-1 file is the Resources-mode Composition with only the names added", opts: Options{Target: crossplane.V2, XRScope: XRScopeLegacy, Phase1: true}, want: []Code{"C204"}},
		"e04-patch-type":                {reason: "E4: the patch type is written first", opts: v2},
		"e05-patchsets":                 {reason: "E5: patch sets move into the input, references stay", opts: v2},
		"e06-keepmapvalues":             {reason: "E6: keepMapValues becomes MergeObjects", opts: v2},
		"e07-appendslice":               {reason: "E7: appendSlice becomes ForceMergeObjectsAppendArrays", opts: v2},
		"e08-empty-mergeoptions":        {reason: "E8: empty mergeOptions becomes ForceMergeObjects", opts: v2},
		"e09-both-mergeoptions":         {reason: "E9: both options become MergeObjectsAppendArrays", opts: v2},
		"e10-false-and-null":            {reason: "E10: false counts as unset, fromFieldPath policy kept, null mergeOptions and the emptied policy dropped", opts: v2, want: []Code{"C315"}},
		"e11-math-multiply":             {reason: "E11: math type from multiply", opts: v2, want: []Code{"C317"}},
		"e12-math-clampmax":             {reason: "E12: math type from clampMax, with C314", opts: v2, want: []Code{"C221", "C314", "C317"}},
		"e13-string-fmt":                {reason: "E13: string type Format from fmt (the native default, no finding)", opts: v2},
		"e14-string-convert":            {reason: "E14: string type Convert from convert, with C313", opts: v2, want: []Code{"C221", "C313", "C317"}},
		"e15-string-regexp":             {reason: "E15: string type Regexp from regexp, group kept", opts: v2, want: []Code{"C221", "C313", "C317"}},
		"e16-trim-without-type":         {reason: "E16: trim without a type is refused", opts: v2, want: []Code{"C122"}, wantFailed: true},
		"e17-match-literal":             {reason: "E17: match patterns get type: literal, regexp patterns untouched", opts: v2},
		"e18-map-convert":               {reason: "E18: map and convert transforms copied verbatim", opts: v2, want: []Code{"C317"}},
		"e19-transform-type-inferred":   {reason: "E19: a transform without type but one block gets the type, with C313", opts: v2, want: []Code{"C221", "C313", "C317"}},
		"e20-connection-secret-key":     {reason: "E20: a detail with only a secret key gets name and type", opts: v2},
		"e21-connection-value":          {reason: "E21: a fixed value gets type FromValue", opts: v2},
		"e22-connection-precedence":     {reason: "E22: two sources and no type: native precedence picks the secret key", opts: v2, want: []Code{"C316"}},
		"e23-connection-explicit-type":  {reason: "E23: an explicit type is kept", opts: v2, want: []Code{"C316"}},
		"e24-connection-no-name":        {reason: "E24: a field-path detail without a name is refused", opts: v2, want: []Code{"C124"}, wantFailed: true},
		"e25-readiness":                 {reason: "E25: empty checks stay empty, MatchCondition completed, others verbatim", opts: v2},
		"e26-full-environment":          {reason: "E26: environment-configs step plus environment patches, resolve: Always dropped silently; the environment patch writing the XR's status warns (Q-4, C213)", opts: v2, want: []Code{"C310", "C311", "C213"}},
		"e27-environment-patches-only":  {reason: "E27: environment patches only: no environment-configs step", opts: v2, want: []Code{"C310", "C311"}},
		"e28-selector-resolve":          {reason: "E28: a selector with the default resolve policy: policy gone, C205", opts: v2, want: []Code{"C310", "C311", "C320", "C205"}},
		"e29-xr-write":                  {reason: "E29: a write to the XR outside status warns, a status write does not", opts: v2, want: []Code{"C209"}},
		"e30-pipeline-environment":      {reason: "E30: a Pipeline-mode Composition with a native environment: step prepended, patches dropped", opts: v2, want: []Code{"C310", "C311", "C309", "C207"}},
		"e30-pipeline-environment-move": {reason: "E30: --move-env-patches fails without a patch-and-transform step", opts: Options{Target: crossplane.V2, XRScope: XRScopeLegacy, MoveEnvPatches: true}, want: []Code{"C310", "C311", "C309", "C113"}, wantFailed: true},
		"e31-multi-document":            {reason: "E31: only the Composition of a multi-document file changes", opts: v2},
		"e32-exported-object":           {reason: "E32: server fields and the default store reference removed (target v2)", opts: v2, want: []Code{"C302", "C303"}},
		"e33-configuration-dependency":  {reason: "E33: the function name comes from the Configuration's dependency", opts: v2},
		"e34-ess-v2":                    {reason: "E34: an external secret store in use is removed for v2, with C202", opts: v2, want: []Code{"C202"}},
		"e34-ess-v1":                    {reason: "E34: target v1 keeps the store reference", opts: Options{Target: crossplane.V1}},
		"e35-join-separator":            {reason: "E35: a two-byte join separator warns", opts: v2, want: []Code{"C208"}},
		"e36-alpha-functions":           {reason: "E36: alpha spec.functions, pruned by the API server from Crossplane 1.14 on, is dropped and the rest converted (C214)", opts: v2, want: []Code{"C214"}},
		"e37-mixed-names":               {reason: "E37: named and unnamed templates mixed is refused", opts: v2, want: []Code{"C109"}, wantFailed: true},
		"e38-anchors":                   {reason: "E38: the anchored patches are normalised once and the alias still points at them", opts: v2},
		"e39-enum-case-fixed":           {reason: "E39: --fix-enum-case rewrites optional as Optional", opts: Options{Target: crossplane.V2, XRScope: XRScopeLegacy, FixEnumCase: true}, want: []Code{"C312"}},
		"e39-enum-case-refused":         {reason: "E39: a lower-case policy enum is refused by default", opts: v2, want: []Code{"C118"}, wantFailed: true},
		"e40-required-policy":           {reason: "E40: Required policy reported, toFieldPath left absent", opts: v2, want: []Code{"C315"}},
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "examples", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != len(cases) {
		t.Errorf("testdata/examples has %d cases, the table %d", len(dirs), len(cases))
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "examples", name)
			in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			opts := tc.opts
			opts.Source = "input.yaml"
			if b, err := os.ReadFile(filepath.Join(dir, "crossplane.yaml")); err == nil {
				opts.Configuration = b
			}
			var first *Result
			for run := range 2 {
				got, err := Convert(in, opts)
				if err != nil {
					t.Fatalf("\n%s\nConvert(...): %v", tc.reason, err)
				}
				if run == 0 {
					first = got
					continue
				}
				if !bytes.Equal(first.Output, got.Output) || render(first.Diagnostics) != render(got.Diagnostics) {
					t.Errorf("\n%s\nConvert(...): a second run gave a different result", tc.reason)
				}
			}
			if diff := cmp.Diff(tc.want, codes(first.Diagnostics)); diff != "" {
				t.Errorf("\n%s\nConvert(...) codes: -want, +got:\n%s", tc.reason, diff)
			}
			if first.Failed() != tc.wantFailed {
				t.Errorf("\n%s\nConvert(...).Failed(): want %v, got %v\n%s", tc.reason, tc.wantFailed, first.Failed(), render(first.Diagnostics))
			}
			testutil.Golden(t, filepath.Join(dir, "golden.yaml"), first.Output)
			testutil.Golden(t, filepath.Join(dir, "diagnostics.golden"), []byte(render(first.Diagnostics)))
			if first.Failed() {
				if !bytes.Equal(first.Output, in) {
					t.Errorf("\n%s\nConvert(...): a failed conversion must leave the input as it is", tc.reason)
				}
				return
			}
			again, err := Convert(first.Output, opts)
			if err != nil {
				t.Fatalf("\n%s\nConvert(output): %v", tc.reason, err)
			}
			if again.Changed {
				t.Errorf("\n%s\nConvert(output): converting the output again changed it:\n%s", tc.reason, again.Output)
			}
		})
	}
}
