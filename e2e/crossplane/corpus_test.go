//go:build e2e_crossplane

package crossplanee2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/xpmigrate/xpmigrate/e2e/crossplane/fakecloud"
	"github.com/xpmigrate/xpmigrate/internal/crdschema"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// corpusTarget is how many corpus Compositions scenario 1 selects (some
// are refused by the API server: their examples do not satisfy their own
// XRD's schema).
const corpusTarget = 60

// A corpusCase is one corpus Composition with its first example.
type corpusCase struct {
	File, Name string
	// Verdict is xpmigrate verify's verdict on the conversion.
	Verdict   string
	Legacy    *unstructured.Unstructured
	Converted *unstructured.Unstructured
	XRD       *unstructured.Unstructured
	// Sample is the example as the test creates it (an XR or a claim),
	// SampleSource its file#document.
	Sample       *unstructured.Unstructured
	SampleSource string
	Kinds        []schema.GroupVersionKind
	// Env are the EnvironmentConfigs of the Composition's repository when
	// it reads the environment; the pipeline side then cannot run (no
	// real function-environment-configs: the module proxy refuses it).
	Env []*unstructured.Unstructured

	xrGVK  schema.GroupVersionKind
	xrName string
	// refused says why the API server refused the case's objects;
	// unsteady what still changed when the case was last polled.
	refused, unsteady string
	// collision: another case composed an object of the same name.
	collision bool
	// Results.
	legacy    composition
	steady    bool
	emulation []string
	pipeline  string
	changed   []string
}

// migrateReport is what the test reads of migrate's JSON report.
type migrateReport struct {
	Compositions []struct {
		File         string `json:"file"`
		Name         string `json:"name"`
		Legacy       bool   `json:"legacy"`
		Verification *struct {
			Status  string `json:"status"`
			Samples []struct {
				Source string `json:"source"`
			} `json:"samples"`
		} `json:"verification"`
	} `json:"compositions"`
}

// corpusIndex holds every XRD and EnvironmentConfig of the corpus.
type corpusIndex struct {
	xrds map[schema.GroupKind]*unstructured.Unstructured
	// claims maps a claim kind to its XRD.
	claims map[schema.GroupKind]*unstructured.Unstructured
	envs   map[string][]*unstructured.Unstructured
}

func indexCorpus(t *testing.T, root string) corpusIndex {
	t.Helper()
	ix := corpusIndex{xrds: map[schema.GroupKind]*unstructured.Unstructured{}, claims: map[schema.GroupKind]*unstructured.Unstructured{}, envs: map[string][]*unstructured.Unstructured{}}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		objs, err := readObjects(path)
		if err != nil {
			return nil //nolint:nilerr // a file that is not Kubernetes YAML holds nothing to index
		}
		rel, _ := filepath.Rel(root, path)
		repo := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		for _, o := range objs {
			switch o.GetKind() {
			case "CompositeResourceDefinition":
				group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
				kind, _, _ := unstructured.NestedString(o.Object, "spec", "names", "kind")
				claim, _, _ := unstructured.NestedString(o.Object, "spec", "claimNames", "kind")
				gk := schema.GroupKind{Group: group, Kind: kind}
				if _, dup := ix.xrds[gk]; !dup {
					ix.xrds[gk] = o
					if claim != "" {
						ix.claims[schema.GroupKind{Group: group, Kind: claim}] = o
					}
				}
			case "EnvironmentConfig":
				ix.envs[repo] = append(ix.envs[repo], o)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// document returns the n-th (from 1) document of path.
func document(path string, n int) (*unstructured.Unstructured, error) {
	objs, err := readObjects(path)
	if err != nil {
		return nil, err
	}
	if n < 1 || n > len(objs) {
		return nil, fmt.Errorf("%s has no document %d", path, n)
	}
	return objs[n-1], nil
}

func named(path, kind, name string) *unstructured.Unstructured {
	objs, err := readObjects(path)
	if err != nil {
		return nil
	}
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	return nil
}

// selectCorpus picks the corpus Compositions scenario 1 runs: those with an
// example and an XRD in the corpus, whose resources are managed resources
// of a provider (no core Kubernetes kind, no nested XR), at most one per
// XR type, sorted by file and name; skipped says why the others were left.
func selectCorpus(t *testing.T, root, out string, rep migrateReport, ix corpusIndex) (cases []*corpusCase, skipped map[string]int) {
	t.Helper()
	skipped = map[string]int{}
	types := map[schema.GroupKind]bool{}
	names := map[string]bool{}
	comps := rep.Compositions
	sort.Slice(comps, func(i, j int) bool {
		if comps[i].File != comps[j].File {
			return comps[i].File < comps[j].File
		}
		return comps[i].Name < comps[j].Name
	})
	for _, c := range comps {
		if !c.Legacy || c.Verification == nil || len(c.Verification.Samples) == 0 {
			skipped["no example"]++
			continue
		}
		cc := &corpusCase{File: c.File, Name: c.Name, Verdict: c.Verification.Status, SampleSource: c.Verification.Samples[0].Source}
		cc.Legacy = named(filepath.Join(root, c.File), "Composition", c.Name)
		cc.Converted = named(filepath.Join(out, c.File), "Composition", c.Name)
		if cc.Legacy == nil || cc.Converted == nil {
			skipped["composition not found by name"]++
			continue
		}
		av, _, _ := unstructured.NestedString(cc.Legacy.Object, "spec", "compositeTypeRef", "apiVersion")
		kind, _, _ := unstructured.NestedString(cc.Legacy.Object, "spec", "compositeTypeRef", "kind")
		gv, err := schema.ParseGroupVersion(av)
		if err != nil {
			skipped["bad compositeTypeRef"]++
			continue
		}
		cc.xrGVK = gv.WithKind(kind)
		gk := cc.xrGVK.GroupKind()
		if cc.XRD = ix.xrds[gk]; cc.XRD == nil {
			skipped["no XRD in the corpus"]++
			continue
		}
		if types[gk] {
			skipped["XR type already taken"]++
			continue
		}
		if names[cc.Name] {
			skipped["Composition name already taken"]++
			continue
		}
		file, num, _ := strings.Cut(cc.SampleSource, "#")
		n, _ := strconv.Atoi(num)
		sample, err := document(filepath.Join(root, file), n)
		if err != nil {
			skipped["example unreadable"]++
			continue
		}
		cc.Sample = sample.DeepCopy()
		sgk := cc.Sample.GroupVersionKind().GroupKind()
		claim := ix.claims[sgk] == cc.XRD
		if sgk != gk && !claim {
			skipped["example of another type"]++
			continue
		}
		if claim && cc.Sample.GetNamespace() == "" {
			cc.Sample.SetNamespace("default")
		}
		if !claim {
			cc.Sample.SetNamespace("")
		}
		if !namespacesValid(cc.Legacy, cc.Sample) {
			skipped["a namespace is a template placeholder"]++
			continue
		}
		cc.Kinds = composedKinds(cc.Legacy)
		ok := len(cc.Kinds) > 0
		for _, k := range cc.Kinds {
			_, nested := ix.xrds[k.GroupKind()]
			core := k.Group == "apiextensions.crossplane.io" || k.Group == "pkg.crossplane.io"
			if nested || core || !strings.Contains(k.Group, ".") || k.Version == "" || k.Kind == "" {
				ok = false
			}
		}
		if !ok {
			skipped["composes a Kubernetes or Crossplane kind, or an XR"]++
			continue
		}
		if _, env, _ := unstructured.NestedFieldNoCopy(cc.Legacy.Object, "spec", "environment"); env {
			repo := strings.SplitN(c.File, "/", 2)[0]
			cc.Env = ix.envs[repo]
		}
		if err := unstructured.SetNestedField(cc.Sample.Object, cc.Name, "spec", "compositionRef", "name"); err != nil {
			t.Fatal(err)
		}
		// Examples of several repositories share names (and so the names
		// of what they compose): each gets its own.
		cc.Sample.SetName(fmt.Sprintf("%s-c%d", trimName(cc.Sample.GetName(), 50), len(cases)))
		types[gk], names[cc.Name] = true, true
		cases = append(cases, cc)
		if len(cases) == corpusTarget {
			break
		}
	}
	return cases, skipped
}

func trimName(n string, max int) string {
	if len(n) > max {
		return strings.TrimRight(n[:max], "-.")
	}
	return n
}

// namespacesValid says whether every namespace the objects need
// (namespacesOf) is a valid name: some corpus files hold placeholders such
// as ${NAMESPACE} that their repositories substitute.
func namespacesValid(objs ...*unstructured.Unstructured) bool {
	for _, o := range objs {
		for _, ns := range namespacesOf(o) {
			if ns != "" && len(validation.IsDNS1123Label(ns)) > 0 {
				return false
			}
		}
	}
	return true
}

// managedCRDs is one CRD per composed group and kind, with every version
// the cases use.
func managedCRDs(cases []*corpusCase) []*unstructured.Unstructured {
	versions := map[schema.GroupKind][]string{}
	for _, c := range cases {
		for _, k := range c.Kinds {
			vs := versions[k.GroupKind()]
			found := false
			for _, v := range vs {
				found = found || v == k.Version
			}
			if !found {
				versions[k.GroupKind()] = append(vs, k.Version)
			}
		}
	}
	gks := make([]schema.GroupKind, 0, len(versions))
	for gk := range versions {
		gks = append(gks, gk)
	}
	sort.Slice(gks, func(i, j int) bool { return gks[i].String() < gks[j].String() })
	crds := make([]*unstructured.Unstructured, 0, len(gks))
	for _, gk := range gks {
		vs := versions[gk]
		sort.Strings(vs)
		crd := managedCRD(gk.WithVersion(vs[0]), false)
		list, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
		tmpl := list[0].(map[string]any)
		var all []any
		for i, v := range vs {
			m := deepCopyMap(tmpl)
			m["name"], m["storage"] = v, i == 0
			all = append(all, m)
		}
		_ = unstructured.SetNestedSlice(crd.Object, all, "spec", "versions")
		crds = append(crds, crd)
	}
	return crds
}

func deepCopyMap(m map[string]any) map[string]any {
	return (&unstructured.Unstructured{Object: m}).DeepCopy().Object
}

// xrOf finds the XR of a case: the sample, or the XR its claim names.
func (p *platform) xrOf(c *corpusCase) (schema.GroupVersionKind, string, error) {
	if c.Sample.GroupVersionKind().GroupKind() == c.xrGVK.GroupKind() {
		return c.Sample.GroupVersionKind(), c.Sample.GetName(), nil
	}
	claim, err := p.get(c.Sample.GroupVersionKind(), c.Sample.GetNamespace(), c.Sample.GetName())
	if err != nil || claim == nil {
		return schema.GroupVersionKind{}, "", err
	}
	name, _, _ := unstructured.NestedString(claim.Object, "spec", "resourceRef", "name")
	av, _, _ := unstructured.NestedString(claim.Object, "spec", "resourceRef", "apiVersion")
	if name == "" {
		return schema.GroupVersionKind{}, "", nil
	}
	gv, err := schema.ParseGroupVersion(av)
	return gv.WithKind(c.xrGVK.Kind), name, err
}

// steadyAll polls every case until its XR composed every resource it will
// and nothing it composed changed for three polls in a row, or the
// timeout passes (the case is then not steady). Readiness is not waited
// for: a readiness check may read a status field the test provider does
// not write.
func (p *platform) steadyAll(cases []*corpusCase, timeout time.Duration) map[*corpusCase]composition {
	p.t.Helper()
	out := map[*corpusCase]composition{}
	last, same := map[*corpusCase]string{}, map[*corpusCase]int{}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		done := true
		for _, c := range cases {
			if same[c] >= 3 {
				continue
			}
			done = false
			if c.xrName == "" {
				gvk, name, err := p.xrOf(c)
				if err != nil || name == "" {
					continue
				}
				c.xrGVK, c.xrName = gvk, name
			}
			got, err := p.composed(c.xrGVK, c.xrName, c.Kinds)
			if err != nil || got.XR == nil {
				c.unsteady = "the XR was not created"
				continue
			}
			out[c] = got
			v := got.version()
			if v == last[c] {
				same[c]++
			} else {
				c.unsteady = changedSince(last[c], v, len(got.Composed))
				last[c], same[c] = v, 0
			}
		}
		if done {
			break
		}
		time.Sleep(5 * time.Second)
	}
	for _, c := range cases {
		if same[c] < 3 {
			delete(out, c)
		}
	}
	return out
}

var crdGVK = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// storeXR turns xr into what the API server would store, with the XR CRD
// core generated from the XRD (named as the XRD is).
func (p *platform) storeXR(name string, xr *unstructured.Unstructured) error {
	crd, err := p.get(crdGVK, "", name)
	if err != nil || crd == nil {
		return fmt.Errorf("cannot read the XR CRD %q: %w", name, err)
	}
	s := crdschema.New()
	if _, err := s.Add(crd.Object); err != nil {
		return err
	}
	stored, err := s.Stored(xr.Object)
	if err != nil {
		return err
	}
	xr.Object = stored
	return nil
}

func changedNames(changed []string) []string {
	out := make([]string, 0, len(changed))
	for _, c := range changed {
		n, _, _ := strings.Cut(c, ":")
		out = append(out, n)
	}
	return out
}

// coreLogged says whether core logged one of texts in a line that names
// the XR xr.
func (p *platform) coreLogged(xr string, texts ...string) bool {
	b, err := os.ReadFile(filepath.Join(p.dir, "core-v1.20.11.log"))
	if err != nil || xr == "" {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		// The XR's name stands in an event's object reference, or quoted
		// (and JSON-escaped in a log field) in an error message.
		named := strings.Contains(line, `"`+xr+`"`) || strings.Contains(line, `"`+xr+`\"`) || strings.Contains(line, `/`+xr+` `)
		if !named {
			continue
		}
		for _, text := range texts {
			if strings.Contains(line, text) {
				return true
			}
		}
	}
	return false
}

// coreWarning is the most frequent warning event core logged for the XR
// named xr, its generated suffixes masked.
func (p *platform) coreWarning(xr string) string {
	if xr == "" {
		return "none (no XR)"
	}
	b, err := os.ReadFile(filepath.Join(p.dir, "core-v1.20.11.log"))
	if err != nil {
		return err.Error()
	}
	counts := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, `Name:"`+xr+`"`) {
			continue
		}
		_, msg, ok := strings.Cut(line, "type: 'Warning' reason: ")
		if !ok {
			continue
		}
		counts[msg]++
	}
	best, n := "none", 0
	for m, c := range counts {
		if c > n || (c == n && m < best) {
			best, n = m, c
		}
	}
	return fmt.Sprintf("%s (%d times)", best, n)
}

// changedSince says which objects' resource versions changed between two
// composition.version() strings.
func changedSince(before, after string, composed int) string {
	was := map[string]bool{}
	for _, v := range strings.Split(before, ",") {
		was[v] = true
	}
	var changed []string
	for _, v := range strings.Split(after, ",") {
		if !was[v] {
			name, _, _ := strings.Cut(v, "=")
			if !strings.Contains(v, "=") {
				name = "XR"
			}
			changed = append(changed, name)
		}
	}
	sort.Strings(changed)
	return fmt.Sprintf("%d composed; still changing: %s", composed, strings.Join(changed, ", "))
}

// differences lists every difference between what core composed and what
// xpmigrate rendered (compare's checks), one line each.
func differences(got, rendered composition) []string {
	var out []string
	if d := cmp.Diff(xrFields(got.XR), xrFields(rendered.XR)); d != "" {
		out = append(out, "XR: "+d)
	}
	names := map[string]bool{}
	for n := range got.Composed {
		names[n] = true
	}
	for n := range rendered.Composed {
		names[n] = true
	}
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	for _, n := range keys {
		g, r := got.Composed[n], rendered.Composed[n]
		switch {
		case g == nil:
			out = append(out, n+": rendered, not composed by core")
		case r == nil:
			out = append(out, n+": composed by core, not rendered")
		default:
			if d := cmp.Diff(composedFields(g), composedFields(r)); d != "" {
				out = append(out, n+": "+d)
			}
		}
	}
	return out
}

// changedFields lists the composed resources whose composed fields (spec
// and labels) differ between two states of the same XR, those composed in
// only one, and the XR when its fields (xrFields) differ.
func changedFields(before, after composition) []string {
	var out []string
	for n, b := range before.Composed {
		a := after.Composed[n]
		switch {
		case a == nil:
			out = append(out, n+": gone")
		case a.GetUID() != b.GetUID():
			out = append(out, n+": recreated")
		default:
			if d := cmp.Diff(composedFields(b), composedFields(a)); d != "" {
				out = append(out, n+": "+strings.Join(strings.Fields(d), " "))
			}
		}
	}
	for n := range after.Composed {
		if before.Composed[n] == nil {
			out = append(out, n+": new")
		}
	}
	if d := cmp.Diff(xrFields(before.XR), xrFields(after.XR)); d != "" {
		out = append(out, "XR: "+strings.Join(strings.Fields(d), " "))
	}
	sort.Strings(out)
	return out
}

// render runs xpmigrate render on the XR and composed resources core wrote
// (the observed state), with the Composition and extra resources (the
// EnvironmentConfigs), and returns the rendered XR and composed resources
// by resourceKey.
func (p *platform) render(comp *unstructured.Unstructured, c composition, extra []*unstructured.Unstructured) (composition, error) {
	dir := p.t.TempDir()
	compPath := filepath.Join(dir, "composition.yaml")
	writeYAML(p.t, compPath, clean(comp))
	args := []string{"render", filepath.Join(dir, "xr.yaml"), compPath, "-o", filepath.Join(dir, "observed.yaml"), "-x"}
	writeYAML(p.t, args[1], clean(c.XR))
	var objs []map[string]any
	for _, o := range c.Composed {
		objs = append(objs, clean(o))
	}
	writeYAML(p.t, filepath.Join(dir, "observed.yaml"), objs...)
	if len(extra) > 0 {
		var e []map[string]any
		for _, o := range extra {
			e = append(e, clean(o))
		}
		writeYAML(p.t, filepath.Join(dir, "extra.yaml"), e...)
		args = append(args, "-e", filepath.Join(dir, "extra.yaml"))
	}
	cmd := exec.Command(bins.XPMigrate, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return composition{}, fmt.Errorf("xpmigrate render: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	docs, err := readObjectsFrom(out)
	if err != nil {
		return composition{}, err
	}
	return renderedComposition(docs), nil
}

// TestE2ECrossplaneCorpus is scenario 1 on corpus Compositions with
// examples: real core v1.20.11 composes each legacy Composition for its
// first example until steady, and `xpmigrate render` of the legacy
// Composition, given the XR and composed resources core wrote, must give
// the same composed resources and XR fields. Then every converted
// Composition replaces its legacy one (except those that read the
// environment: there is no real function-environment-configs), and what
// core composes must agree with verify's verdict: "equivalent" means no
// composed field changed. The agreement table is written to
// $XPMIGRATE_E2E_TABLE when set (docs/real-crossplane-corpus.md holds the last).
func TestE2ECrossplaneCorpus(t *testing.T) {
	root := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(root, os.DirFS(testutil.Corpus(t))); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(bins.XPMigrate, "migrate", root, "--out", out, "--max-samples", "1", "--format", "json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) {
		t.Fatalf("xpmigrate migrate: %v\n%s", err, stderr.String())
	}
	var rep migrateReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	cases, skipped := selectCorpus(t, root, out, rep, indexCorpus(t, root))
	t.Logf("%d corpus Compositions selected; left out: %v", len(cases), skipped)

	p := newPlatform(t, managedCRDs(cases))
	p.startCore("core-v1.20.11", bins.CoreV1)
	xrdSeen := map[string]bool{}
	for _, c := range cases {
		// Crossplane v1.20 serves these kinds at v1 only; the corpus has
		// some at the long-gone v1beta1, whose fields are the same.
		for _, o := range []*unstructured.Unstructured{c.XRD, c.Legacy, c.Converted} {
			if o.GetAPIVersion() == "apiextensions.crossplane.io/v1beta1" {
				o.SetAPIVersion("apiextensions.crossplane.io/v1")
			}
		}
	}
	var xrds, objs []*unstructured.Unstructured
	for _, c := range cases {
		if !xrdSeen[c.XRD.GetName()] {
			xrdSeen[c.XRD.GetName()] = true
			xrds = append(xrds, c.XRD)
		}
		objs = append(objs, c.Env...)
	}
	if err := p.server.Create(p.ctx, xrds...); err != nil {
		t.Fatal(err)
	}
	for _, x := range xrds {
		p.waitFor("XRD "+x.GetName()+" to be established", 5*time.Minute, func() (bool, error) {
			u, err := p.get(xrdGVK, "", x.GetName())
			if err != nil || u == nil {
				return false, err
			}
			return condition(u, "Established") == "True" && condition(u, "Offered") != "False", nil
		})
	}

	nsObjs := []*unstructured.Unstructured{}
	for _, c := range cases {

		nsObjs = append(nsObjs, c.Legacy, c.Sample)
	}
	if err := p.createNamespaces(nsObjs...); err != nil {
		t.Fatal(err)
	}
	if err := p.server.Create(p.ctx, dedupe(objs)...); err != nil {
		t.Fatal(err)
	}
	// A Composition or example the API server refuses is recorded: the
	// case then shows what a user of Crossplane v1.20.11 would meet.
	var created []*corpusCase
	for _, c := range cases {
		if err := p.server.Create(p.ctx, c.Legacy); err != nil {
			c.refused = "the API server refuses the legacy Composition: " + err.Error()
			continue
		}
		if err := p.server.Create(p.ctx, c.Sample); err != nil {
			c.refused = "the API server refuses the example: " + err.Error()
			continue
		}
		created = append(created, c)
	}
	if len(created) < 40 {
		t.Errorf("real core ran %d corpus Compositions, want at least 40 (%d selected, the rest refused by the API server)", len(created), len(cases))
	}

	// Phase 1: the legacy Compositions on real core, against xpmigrate's
	// legacy render.
	legacy := p.steadyAll(created, 4*time.Minute)
	for _, c := range created {
		got, ok := legacy[c]
		if !ok {
			continue
		}
		c.steady, c.legacy = true, got
		rendered, err := p.render(c.Legacy, got, c.Env)
		if err != nil {
			c.emulation = []string{err.Error()}
			continue
		}
		// The XR as the API server stores it: status fields its XRD's
		// schema does not declare are pruned.
		if err := p.storeXR(c.XRD.GetName(), rendered.XR); err != nil {
			t.Fatal(err)
		}
		c.emulation = differences(got, rendered)
		if len(c.emulation) > 0 && p.coreLogged(c.xrName, "existing object is not controlled by UID", "Only one reference can have Controller set to true") {
			// Two cases compose an object of the same fixed name (from a
			// parameter or the Composition), and core refuses to take over
			// the other XR's: the harness's doing, not core's nor
			// xpmigrate's.
			c.collision = true
		}
	}

	// Phase 2: the converted Compositions on real core.
	var converted []*corpusCase
	for _, c := range cases {
		switch {
		case c.refused != "":
			c.pipeline = "not run: " + c.refused
		case !c.steady:
			c.pipeline = "not run: the legacy side was not steady"
		case c.Env != nil:
			c.pipeline = "not run: reads the environment (no real function-environment-configs)"
		default:
			if err := p.replace(c.Converted); err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			converted = append(converted, c)
		}
	}
	before, err := fakecloud.ReadCalls(p.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Second)
	after := p.steadyAll(converted, 4*time.Minute)
	calls, err := fakecloud.ReadCalls(p.Cloud)
	if err != nil {
		t.Fatal(err)
	}
	calls = calls[len(before):]
	for _, c := range converted {
		got, ok := after[c]
		if !ok {
			c.pipeline = "not steady in 4 min (" + c.unsteady + ")"
			continue
		}
		c.changed = changedFields(c.legacy, got)
		uids := composedUIDs(c.legacy)
		for _, call := range calls {
			if uids[call.Resource.UID] && (call.Op == fakecloud.OpCreate || call.Op == fakecloud.OpDelete) {
				c.changed = append(c.changed, fmt.Sprintf("%s %s: external %s", call.Resource.Kind, call.Resource.Name, call.Op))
			}
		}
		switch {
		case len(c.changed) == 0:
			c.pipeline = "nothing changed"
		default:
			c.pipeline = fmt.Sprintf("changed: %s", strings.Join(changedNames(c.changed), ", "))
		}
	}

	for _, c := range cases {
		if c.refused == "" && (!c.steady || strings.HasPrefix(c.pipeline, "not steady")) {
			c.unsteady += "; core's most frequent warning: " + p.coreWarning(c.xrName)
		}
	}
	table := corpusTable(cases, skipped)
	if path := os.Getenv("XPMIGRATE_E2E_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(table), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Log("\n" + table)
	checkCorpus(t, cases)
}

// checkCorpus fails the test on every disagreement between real core and
// xpmigrate that the run could not attribute to the corpus or the harness.
func checkCorpus(t *testing.T, cases []*corpusCase) {
	t.Helper()
	for _, c := range cases {
		why, known := knownCorpusDisagreements[c.Name]
		switch {
		case c.refused != "":
			// The corpus's own data: an example its XRD refuses, or a
			// Composition Crossplane v1.18+ refuses (native environment).
		case !c.steady && strings.Contains(c.unsteady, "cannot render FromComposite patches"):
			// Core fails a patch on every reconcile and never settles: a
			// patch reads an XR field only a real provider's status fills
			// (the test provider echoes spec.forProvider), or the
			// Composition is broken. Listed in the table with the warning.
		case !c.steady && !known:
			t.Errorf("%s (%s): real core did not reach a steady state (%s)", c.Name, c.File, c.unsteady)
		case c.collision:
			// Listed in the table; the pair of cases says nothing of
			// either engine.
		case len(c.emulation) > 0 && !known:
			t.Errorf("%s (%s): real core and xpmigrate render disagree:\n%s", c.Name, c.File, strings.Join(c.emulation, "\n"))
		case c.Verdict == "equivalent" && len(c.changed) > 0 && !known:
			t.Errorf("%s (%s): verify says equivalent, but on real core the conversion changed:\n%s", c.Name, c.File, strings.Join(c.changed, "\n"))
		case known && why == "":
			t.Errorf("%s: a known disagreement needs its cause", c.Name)
		}
	}
}

// knownCorpusDisagreements are the corpus Compositions whose real-core
// behaviour disagrees with xpmigrate, by name, with the cause.
var knownCorpusDisagreements = map[string]string{}

func dedupe(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	seen := map[string]bool{}
	var out []*unstructured.Unstructured
	for _, o := range objs {
		k := o.GetKind() + "/" + o.GetNamespace() + "/" + o.GetName()
		if !seen[k] {
			seen[k] = true
			out = append(out, o)
		}
	}
	return out
}

// corpusTable is the agreement table in Markdown.
func corpusTable(cases []*corpusCase, skipped map[string]int) string {
	var b strings.Builder
	b.WriteString("| Composition | File | Resources | Real core v1.20.11 vs xpmigrate render (legacy) | verify's verdict | Converted on real core |\n|---|---|---|---|---|---|\n")
	agree, steady, eqOK, eqRun := 0, 0, 0, 0
	for _, c := range cases {
		emu := "not steady in 4 min (" + c.unsteady + ")"
		if c.refused != "" {
			emu = "refused by the API server"
			if c.Env != nil {
				emu += " (environment patches: Crossplane v1.18+ has no native environment)"
			}
		}
		if c.steady {
			steady++
			switch {
			case len(c.emulation) == 0:
				agree++
				emu = "agree"
			case c.collision:
				emu = "not compared: another case composes objects of the same names (core refuses the second controller)"
			default:
				emu = fmt.Sprintf("%d differences: %s", len(c.emulation), strings.Join(changedNames(c.emulation), ", "))
			}
		}
		if c.Verdict == "equivalent" && (c.pipeline == "nothing changed" || strings.HasPrefix(c.pipeline, "changed: ")) {
			eqRun++
			if len(c.changed) == 0 {
				eqOK++
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s |\n", c.Name, c.File, len(c.Legacy.Object["spec"].(map[string]any)["resources"].([]any)), emu, c.Verdict, c.pipeline)
	}
	keys := make([]string, 0, len(skipped))
	for k := range skipped {
		keys = append(keys, fmt.Sprintf("%s: %d", k, skipped[k]))
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "\n%d Compositions: %d steady on real core, %d of them composed exactly as xpmigrate renders; %d of %d \"equivalent\" conversions run on real core changed nothing (composed resources and XR).\nLeft out of the corpus: %s.\n",
		len(cases), steady, agree, eqOK, eqRun, strings.Join(keys, "; "))
	return b.String()
}
