package convert

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// passComposition reads the first document of src as Convert does, and
// returns the Composition in it, ready for a pass.
func passComposition(t *testing.T, src string, opts Options) *composition {
	t.Helper()
	o, err := opts.complete()
	if err != nil {
		t.Fatal(err)
	}
	r := &run{o: o, res: &Result{}}
	chunks := manifest.Split([]byte(src))
	d, err := yamledit.Parse(chunks[0].Text)
	if err != nil || d == nil {
		t.Fatalf("yamledit.Parse(...): %v", err)
	}
	r.resolveFunctions([]*yamledit.Doc{d}, chunks[:1])
	c := r.recognise(0, chunks[0], d, d.Top(), "")
	if c == nil {
		t.Fatal("recognise(...): not a Composition")
	}
	return c
}

// findings returns what the passes reported so far, one "code path" each,
// in order.
func findings(c *composition) []string {
	var out []string
	for _, d := range c.r.res.Diagnostics {
		out = append(out, string(d.Code)+" "+d.Path)
	}
	return out
}

// output returns the Composition's document as it is now.
func output(t *testing.T, c *composition) string {
	t.Helper()
	b, err := c.doc.Encode()
	if err != nil {
		t.Fatalf("Encode(): %v", err)
	}
	return string(b)
}

// specOf returns the resolved spec of the Composition.
func specOf(c *composition) *yaml.Node { return yamledit.Resolve(yamledit.Get(c.node, "spec")) }

const passHead = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  compositeTypeRef: {apiVersion: acme.io/v1, kind: X}\n"

func TestCheckPass(t *testing.T) {
	type want struct {
		ok       bool
		mode     string
		res      bool // resources returns the templates
		findings []string
		out      string // the document after the pass; "" when unchanged
	}
	cases := map[string]struct {
		reason string
		in     string
		opts   Options
		want   want
	}{
		"Template": {
			reason: "A mapping key that is a collection is how an unquoted {{ .Values.x }} reads: C102, nothing else runs.",
			in:     passHead + "  resources:\n  - {{ .Values.x }}: y\n",
			want:   want{findings: []string{"C102 "}},
		},
		"NoSpec": {
			reason: "A Composition without a spec cannot convert (C107).",
			in:     "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\n",
			want:   want{findings: []string{"C107 spec"}},
		},
		"UnknownMode": {
			reason: "A mode other than Resources or Pipeline stops the conversion (C103).",
			in:     passHead + "  mode: Functions\n  resources: []\n",
			want:   want{findings: []string{"C103 spec.mode"}},
		},
		"DuplicateKey": {
			reason: "Of two equal keys kubectl keeps the last: the earlier goes, with C203.",
			in:     passHead + "  resources:\n  - name: a\n    name: b\n    base: {}\n",
			want: want{ok: true, mode: "Resources", res: true, findings: []string{"C203 spec.resources[0].name"},
				out: passHead + "  resources:\n  - name: b\n    base: {}\n"},
		},
		"AlphaFunctions": {
			reason: "The alpha spec.functions, pruned by the API server since 1.14, is removed (C214).",
			in:     passHead + "  functions: [{name: f}]\n  resources:\n  - name: a\n    base: {}\n",
			want: want{ok: true, mode: "Resources", res: true, findings: []string{"C214 spec.functions"},
				out: passHead + "  resources:\n  - name: a\n    base: {}\n"},
		},
		"PipelineMode": {
			reason: "A Pipeline-mode Composition passes the check; its resources are not looked at.",
			in:     passHead + "  mode: Pipeline\n  pipeline: []\n",
			want:   want{ok: true, mode: "Pipeline"},
		},
		"StepsInResourcesMode": {
			reason: "Pipeline steps in a Resources-mode Composition are ambiguous (C104).",
			in:     passHead + "  pipeline: [{step: a}]\n  resources:\n  - name: a\n    base: {}\n",
			want:   want{ok: true, mode: "Resources", findings: []string{"C104 spec.pipeline"}},
		},
		"NoResources": {
			reason: "A base without resources (for kustomize overlays) converts with `resources: []` (C214).",
			in:     passHead,
			want: want{ok: true, mode: "Resources", res: true, findings: []string{"C214 spec.resources"},
				out: passHead + "  resources: []\n"},
		},
		"ResourcesNotAList": {
			reason: "spec.resources must be a list of templates (C107).",
			in:     passHead + "  resources: {a: 1}\n",
			want:   want{ok: true, mode: "Resources", findings: []string{"C107 spec.resources"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := passComposition(t, tc.in, tc.opts)
			spec, mode, ok := checkPass{c}.run()
			got := want{ok: ok, mode: mode}
			if ok && mode == "Resources" {
				got.res = checkPass{c}.resources(spec) != nil
			}
			got.findings = findings(c)
			if out := output(t, c); ok && out != tc.in {
				got.out = out
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\ncheckPass: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestNormalisePass(t *testing.T) {
	type want struct {
		findings []string
		out      string
		env      string // what the environment split holds
	}
	const base = "    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n"
	cases := map[string]struct {
		reason string
		in     string
		opts   Options
		want   want
	}{
		"ServerFields": {
			reason: "What kubectl get adds is removed (C302).",
			in: "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\n  uid: u\n  resourceVersion: \"7\"\nspec:\n  compositeTypeRef: {apiVersion: acme.io/v1, kind: X}\n" +
				"  resources:\n  - name: a\n" + base,
			want: want{findings: []string{"C302 "}, out: passHead + "  resources:\n  - name: a\n" + base},
		},
		"KeepServerFields": {
			reason: "--keep-server-fields keeps them.",
			in:     "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\n  uid: u\nspec:\n  compositeTypeRef: {apiVersion: acme.io/v1, kind: X}\n  resources:\n  - name: a\n" + base,
			opts:   Options{KeepServerFields: true},
			want:   want{},
		},
		"UnnamedTemplates": {
			reason: "Unnamed templates are named resource-<i> (C204).",
			in:     passHead + "  resources:\n  - base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n",
			want: want{findings: []string{"C204 spec.resources"},
				out: passHead + "  resources:\n  - name: resource-0\n    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n"},
		},
		"UnknownTemplateField": {
			reason: "A field the function input does not know was pruned by the API server: it goes (C203).",
			in:     passHead + "  resources:\n  - name: a\n" + base + "    extra: 1\n",
			want:   want{findings: []string{"C203 spec.resources[0].extra"}, out: passHead + "  resources:\n  - name: a\n" + base},
		},
		"TransformTypeInferred": {
			reason: "A transform without a type gets the type of its only block (C313); a patch without one, the API server's default.",
			in:     passHead + "  resources:\n  - name: a\n" + base + "    patches:\n    - fromFieldPath: spec.a\n      toFieldPath: spec.b\n      transforms:\n      - map: {x: y}\n",
			want: want{findings: []string{"C221 spec.resources[0].patches[0].transforms[0]", "C313 spec.resources[0].patches[0].transforms[0].type", "C317 spec.resources[0].patches[0].transforms[0]"},
				out: passHead + "  resources:\n  - name: a\n" + base + "    patches:\n    - type: FromCompositeFieldPath\n      fromFieldPath: spec.a\n      toFieldPath: spec.b\n      transforms:\n      - type: map\n        map: {x: y}\n"},
		},
		"Environment": {
			reason: "spec.environment is split: sources for the environment-configs step, patches for patch-and-transform.",
			in: passHead + "  environment:\n    environmentConfigs:\n    - type: Reference\n      ref: {name: e}\n    patches:\n    - {type: FromCompositeFieldPath, fromFieldPath: spec.a, toFieldPath: a}\n" +
				"  resources:\n  - name: a\n" + base,
			want: want{findings: []string{"C310 spec.environment", "C311 spec.environment", "C309 spec.environment.policy.resolve"}, env: "ec patches"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := passComposition(t, tc.in, tc.opts)
			spec := specOf(c)
			env := normalisePass{c}.run(spec, yamledit.Resolve(yamledit.Get(spec, "resources")))
			// C317 is the validation's: run it to see the fallible
			// transform the normalisation found.
			validatePass{c}.input()
			got := want{findings: findings(c)}
			if out := output(t, c); out != tc.in {
				got.out = out
			}
			if env != nil {
				var parts []string
				if env.ec != nil {
					parts = append(parts, "ec")
				}
				if env.patches != nil {
					parts = append(parts, "patches")
				}
				got.env = strings.Join(parts, " ")
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\nnormalisePass.run(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCompensatePassIntegerFormat(t *testing.T) {
	type want struct {
		inserted   bool
		findings   []string
		transforms string // the transforms after the pass, in flow style
		intended   []string
	}
	const transforms = "transforms: [{type: string, string: {type: Format, fmt: \"%d\"}}]\n"
	cases := map[string]struct {
		reason string
		kinds  valueKinds
		opts   Options
		want   want
	}{
		"ProvableInteger": {
			reason: "An XR integer is int64 natively: a convert to int64 goes in before the format (K1, C323).",
			kinds:  kindKubeInt,
			want: want{inserted: true, findings: []string{"C323 t[0].string.fmt"},
				transforms: "transforms: [{type: convert, convert: {toType: int64}}, {type: string, string: {type: Format, fmt: \"%d\"}}]\n"},
		},
		"CompensationOff": {
			reason: "--no-compensate K1 leaves the difference, with C212.",
			kinds:  kindKubeInt,
			opts:   Options{NoCompensate: []string{CompensateIntegerFormat}},
			want:   want{findings: []string{"C212 t[0].string.fmt"}, transforms: transforms},
		},
		"MaybeInteger": {
			reason: "A value that can be an integer or a string is not compensated (C212).",
			kinds:  kindKubeInt | kindString,
			want:   want{findings: []string{"C212 t[0].string.fmt"}, transforms: transforms},
		},
		"QuirkFixed": {
			reason: "--fix-quirk C325 inserts the convert wherever the value can be a number, and records the intended change.",
			kinds:  kindKubeInt | kindString,
			opts:   Options{FixQuirks: []string{QuirkIntegerFormat}},
			want: want{inserted: true, findings: []string{"C325 t[0].string.fmt"}, intended: []string{QuirkIntegerFormat},
				transforms: "transforms: [{type: convert, convert: {toType: int64}}, {type: string, string: {type: Format, fmt: \"%d\"}}]\n"},
		},
		"FloatBothSides": {
			reason: "A float64 prints the same on both sides: nothing to compensate.",
			kinds:  kindFloat,
			want:   want{transforms: transforms},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := passComposition(t, passHead+"  resources: []\n", tc.opts)
			d, err := yamledit.Parse([]byte(transforms))
			if err != nil {
				t.Fatal(err)
			}
			seq := yamledit.Resolve(yamledit.Get(d.Top(), "transforms"))
			s := yamledit.Resolve(yamledit.Get(seq.Content[0], "string"))
			ch := &chain{src: source{what: "the XR's spec.n"}, kinds: tc.kinds}
			got := want{inserted: compensatePass{c}.integerFormat(seq, 0, s, "t[0].string", "t[0]", ch)}
			got.findings = findings(c)
			got.intended = c.intended
			out, err := d.Encode()
			if err != nil {
				t.Fatal(err)
			}
			got.transforms = string(out)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\ncompensatePass.integerFormat(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCompensatePassAnnotateIntended(t *testing.T) {
	cases := map[string]struct {
		reason   string
		metadata string
		intended []string
		want     string
	}{
		"NothingFixed": {
			reason:   "Without a fixed quirk the metadata is left alone.",
			metadata: "metadata:\n  name: c\n",
			want:     "metadata:\n  name: c\n",
		},
		"Added": {
			reason:   "The codes of the fixed quirks are written, sorted, once each.",
			metadata: "metadata:\n  name: c\n",
			intended: []string{"C325", "C325"},
			want:     "metadata:\n  name: c\n  annotations:\n    xpmigrate.io/intended-changes: \"C325\"\n",
		},
		"Merged": {
			reason:   "Codes already listed are kept and merged.",
			metadata: "metadata:\n  name: c\n  annotations:\n    xpmigrate.io/intended-changes: C999\n",
			intended: []string{"C325"},
			want:     "metadata:\n  name: c\n  annotations:\n    xpmigrate.io/intended-changes: \"C325,C999\"\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\n" + tc.metadata + "spec:\n  resources: []\n"
			c := passComposition(t, in, Options{})
			c.intended = tc.intended
			compensatePass{c}.annotateIntended()
			want := "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\n" + tc.want + "spec:\n  resources: []\n"
			if diff := cmp.Diff(want, output(t, c)); diff != "" {
				t.Errorf("%s\ncompensatePass.annotateIntended(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestPipelinePass(t *testing.T) {
	const base = "    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n"
	cases := map[string]struct {
		reason   string
		in       string
		opts     Options
		pipeline bool // the Composition is in Pipeline mode already
		findings []string
		out      string
	}{
		"Resources": {
			reason: "The templates and patch sets move into the patch-and-transform input of the only step.",
			in:     passHead + "  patchSets:\n  - name: p\n    patches: []\n  resources:\n  - name: a\n" + base,
			out: passHead + "  mode: Pipeline\n  pipeline:\n  - step: patch-and-transform\n    functionRef:\n      name: function-patch-and-transform\n    input:\n" +
				"      apiVersion: pt.fn.crossplane.io/v1beta1\n      kind: Resources\n      patchSets:\n      - name: p\n        patches: []\n      resources:\n      - name: a\n" +
				"        base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n",
		},
		"Environment": {
			reason:   "An environment adds an environment-configs step before patch-and-transform.",
			in:       passHead + "  environment:\n    environmentConfigs:\n    - type: Reference\n      ref: {name: e}\n  resources:\n  - name: a\n" + base,
			findings: []string{"C310 spec.environment", "C311 spec.environment", "C309 spec.environment.policy.resolve"},
			out: passHead + "  mode: Pipeline\n  pipeline:\n  - step: environment-configs\n    functionRef:\n      name: function-environment-configs\n    input:\n" +
				"      apiVersion: environmentconfigs.fn.crossplane.io/v1beta1\n      kind: Input\n      spec:\n        environmentConfigs:\n        - type: Reference\n          ref: {name: e}\n" +
				"  - step: patch-and-transform\n    functionRef:\n      name: function-patch-and-transform\n    input:\n" +
				"      apiVersion: pt.fn.crossplane.io/v1beta1\n      kind: Resources\n      resources:\n      - name: a\n" +
				"        base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n",
		},
		"PipelineLeftovers": {
			reason:   "In Pipeline mode, leftover resources and patch sets go (C201).",
			in:       passHead + "  mode: Pipeline\n  pipeline:\n  - step: s\n    functionRef: {name: f}\n  resources: []\n",
			pipeline: true,
			findings: []string{"C201 spec.resources"},
			out:      passHead + "  mode: Pipeline\n  pipeline:\n  - step: s\n    functionRef: {name: f}\n",
		},
		"PipelineStepNameTaken": {
			reason:   "An environment-configs step whose name is taken is numbered (C304).",
			in:       passHead + "  mode: Pipeline\n  environment:\n    environmentConfigs:\n    - type: Reference\n      ref: {name: e}\n  pipeline:\n  - step: environment-configs\n    functionRef: {name: f}\n",
			pipeline: true,
			findings: []string{"C310 spec.environment", "C311 spec.environment", "C309 spec.environment.policy.resolve", "C304 spec.pipeline"},
			out: passHead + "  mode: Pipeline\n  pipeline:\n  - step: environment-configs-2\n    functionRef:\n      name: function-environment-configs\n    input:\n" +
				"      apiVersion: environmentconfigs.fn.crossplane.io/v1beta1\n      kind: Input\n      spec:\n        environmentConfigs:\n        - type: Reference\n          ref: {name: e}\n" +
				"  - step: environment-configs\n    functionRef: {name: f}\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := passComposition(t, tc.in, tc.opts)
			spec := specOf(c)
			if tc.pipeline {
				pipelinePass{c}.pipelineMode(spec)
			} else {
				res := yamledit.Resolve(yamledit.Get(spec, "resources"))
				env := normalisePass{c}.environment(spec)
				pipelinePass{c}.assemble(spec, res, env)
			}
			if diff := cmp.Diff(tc.findings, findings(c), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\npipelinePass: findings: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.out, output(t, c)); diff != "" {
				t.Errorf("%s\npipelinePass: output: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestValidatePass(t *testing.T) {
	const base = "    base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n"
	const pt = "  - step: pt\n    functionRef: {name: function-patch-and-transform}\n    input:\n      apiVersion: pt.fn.crossplane.io/v1beta1\n      kind: Resources\n"
	cases := map[string]struct {
		reason   string
		in       string
		validate func(v validatePass)
		findings []string
	}{
		"InputValid": {
			reason:   "A valid Resources-mode Composition passes native validation.",
			in:       passHead + "  resources:\n  - name: a\n" + base,
			validate: func(v validatePass) { v.input() },
		},
		"InputCompositeTypeRef": {
			reason:   "An invalid composite type reference stays invalid after conversion (C190).",
			in:       "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  compositeTypeRef: {kind: X}\n  resources:\n  - name: a\n" + base,
			validate: func(v validatePass) { v.input() },
			findings: []string{"C190 spec.compositeTypeRef.apiVersion"},
		},
		"InputFallible": {
			reason: "The first transform that can fail is reported once validation passes (C317).",
			in:     passHead + "  resources:\n  - name: a\n" + base,
			validate: func(v validatePass) {
				v.fallible, v.fallNode = "spec.resources[0].patches[0].transforms[0]", v.node
				v.input()
			},
			findings: []string{"C317 spec.resources[0].patches[0].transforms[0]"},
		},
		"OutputValid": {
			reason:   "A pipeline whose input the function accepts is valid.",
			in:       passHead + "  mode: Pipeline\n  pipeline:\n" + pt + "      resources:\n      - name: a\n    " + base,
			validate: func(v validatePass) { v.validateOutput(specOf(v.composition)) },
		},
		"OutputNotPipeline": {
			reason:   "A converted Composition must be in Pipeline mode, without leftovers (C190).",
			in:       passHead + "  resources: []\n  pipeline:\n" + pt + "      resources:\n      - name: a\n    " + base,
			validate: func(v validatePass) { v.validateOutput(specOf(v.composition)) },
			findings: []string{"C190 spec.resources", "C190 spec.mode"},
		},
		"OutputStepNames": {
			reason:   "Step names must be unique (C190).",
			in:       passHead + "  mode: Pipeline\n  pipeline:\n" + pt + "      resources:\n      - name: a\n    " + base + pt + "      resources:\n      - name: b\n    " + base,
			validate: func(v validatePass) { v.validateOutput(specOf(v.composition)) },
			findings: []string{"C190 spec.pipeline[1].step"},
		},
		"OutputFunctionRejects": {
			reason:   "An input function-patch-and-transform would reject fails the conversion (C190).",
			in:       passHead + "  mode: Pipeline\n  pipeline:\n" + pt + "      resources:\n      - name: a\n    " + base + "        patches:\n        - {type: FromCompositeFieldPath}\n",
			validate: func(v validatePass) { v.validateOutput(specOf(v.composition)) },
			findings: []string{"C190 spec.pipeline[0].input.resources[0].patches[0].fromFieldPath"},
		},
		"RoundTripUnchanged": {
			reason:   "A document read back as it was read has nothing changed.",
			in:       passHead + "  resources: []\n",
			validate: func(v validatePass) { v.checkRoundTrip(v.inJSON) },
		},
		"RoundTripUnreadable": {
			reason:   "A converted document kubectl cannot read is an error (C192).",
			in:       passHead + "  resources: []\n",
			validate: func(v validatePass) { v.checkRoundTrip(nil) },
			findings: []string{"C192 "},
		},
		"RoundTripMetadata": {
			reason: "Metadata the conversion changed is an error (C192).",
			in:     passHead + "  resources: []\n",
			validate: func(v validatePass) {
				v.checkRoundTrip([]byte(`{"apiVersion":"apiextensions.crossplane.io/v1","kind":"Composition","metadata":{"name":"d"},"spec":{"compositeTypeRef":{"apiVersion":"acme.io/v1","kind":"X"},"resources":[]}}`))
			},
			findings: []string{"C192 metadata"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := passComposition(t, tc.in, Options{})
			tc.validate(validatePass{c})
			if diff := cmp.Diff(tc.findings, findings(c), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\nvalidatePass: -want, +got:\n%s", tc.reason, diff)
			}
			if failed := len(tc.findings) > 0 && !strings.HasPrefix(tc.findings[0], "C317"); c.failed != failed {
				t.Errorf("%s\nvalidatePass: failed %t, want %t", tc.reason, c.failed, failed)
			}
		})
	}
}

// TestPassesCompose: the passes, run one after the other as resourcesMode
// runs them, give what Convert gives.
func TestPassesCompose(t *testing.T) {
	in := passHead + "  resources:\n  - base: {apiVersion: nop.crossplane.io/v1alpha1, kind: NopResource}\n    patches:\n    - fromFieldPath: spec.n\n      toFieldPath: spec.m\n      transforms:\n      - map: {a: b}\n"
	c := passComposition(t, in, Options{})
	spec, _, ok := checkPass{c}.run()
	if !ok {
		t.Fatal("checkPass.run(): not ok")
	}
	res := checkPass{c}.resources(spec)
	env := normalisePass{c}.run(spec, res)
	validatePass{c}.input()
	pipelinePass{c}.assemble(spec, res, env)
	compensatePass{c}.annotateIntended()
	validatePass{c}.validateOutput(spec)
	byPasses := output(t, c)

	r, err := Convert([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(r.Output), byPasses); diff != "" {
		t.Errorf("passes one by one: output: -Convert, +passes:\n%s", diff)
	}
	var want []string
	for _, d := range r.Diagnostics {
		if d.Document >= 0 {
			want = append(want, fmt.Sprintf("%s %s", d.Code, d.Path))
		}
	}
	if diff := cmp.Diff(want, findings(c)); diff != "" {
		t.Errorf("passes one by one: findings: -Convert, +passes:\n%s", diff)
	}
}
