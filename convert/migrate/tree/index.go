package tree

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/migrate/kustomize"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/samples"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// An Index is what the scan learned about the whole tree.
type Index struct {
	Compositions []*CompInfo
	// ByType holds Compositions by compositeTypeRef "apiVersion|kind".
	ByType map[string][]*CompInfo

	XRDs []*XRDInfo
	// Samples are the documents that may be XRs or claims, by
	// "apiVersion|kind" and by "group|kind".
	Samples        []*SampleInfo
	samplesByType  map[string][]*SampleInfo
	samplesByGroup map[string][]*SampleInfo
	// ByPosition holds Compositions by "file#doc.item".
	ByPosition map[string]*CompInfo

	envConfigs []Located
	Functions  []Located
	Configs    []Located

	// PatchFiles are the files kustomizations use as patches.
	PatchFiles map[string]bool
	// Kustomize are the kustomize findings, by file.
	Kustomize map[string][]finding.Diagnostic

	// scopes are the directories that hold a crossplane.yaml, deepest
	// first; they bound function-name resolution.
	scopes []string
}

// A Located is an object and where it is.
type Located struct {
	File string
	Doc  int
	Obj  map[string]any
}

type CompInfo struct {
	File      string
	Doc, Item int
	Name      string
	TypeRef   string // "apiVersion|kind"
	// From is, for a v2 conversion, the legacy type it was converted
	// from ("apiVersion|kind", its v2-mapping annotation), else "".
	From   string
	Labels map[string]string
	// Composes are the types its templates compose ("apiVersion|kind").
	Composes []string
	Legacy   bool
	// NativeEnv reports a mode Pipeline Composition with spec.environment,
	// which the converter rewrites into a function-environment-configs
	// step.
	NativeEnv bool
	// ptStep is the index the patch-and-transform step gets once
	// converted.
	ptStep int
}

type XRDInfo struct {
	File       string
	Obj        map[string]any
	Group      string
	Kind       string
	ClaimKind  string
	versions   map[string]bool
	Referenced string // referenceable version
}

type SampleInfo struct {
	order  int // position in index.samples: path order
	File   string
	Doc    int
	Item   int
	Obj    map[string]any
	Source string
}

// BuildIndex indexes the scanned files.
func BuildIndex(files []*Scanned) *Index {
	ix := &Index{ByType: map[string][]*CompInfo{}, PatchFiles: map[string]bool{}, Kustomize: map[string][]finding.Diagnostic{},
		samplesByType: map[string][]*SampleInfo{}, samplesByGroup: map[string][]*SampleInfo{}, ByPosition: map[string]*CompInfo{}}
	var others []*SampleInfo
	fixtures := samples.NewFilter(nil)
	for _, f := range files {
		if f.Reason != "" {
			continue
		}
		if base := path.Base(f.Rel); base == "crossplane.yaml" {
			ix.scopes = append(ix.scopes, path.Dir(f.Rel))
		}
		for _, d := range f.Docs {
			if d.Obj == nil {
				continue
			}
			fixtures.Observe(f.Rel, d.Obj)
			switch {
			case IsComposition(d.APIVersion, d.Kind):
				c := newCompInfo(f.Rel, d)
				ix.Compositions = append(ix.Compositions, c)
				ix.ByType[c.TypeRef] = append(ix.ByType[c.TypeRef], c)
				ix.ByPosition[SourceName(c.File, c.Doc, c.Item)] = c
			case IsXRD(d.APIVersion, d.Kind):
				x := newXRDInfo(f.Rel, d.Obj)
				ix.XRDs = append(ix.XRDs, x)
			case d.Kind == "EnvironmentConfig" && xp.Group(d.APIVersion) == xp.GroupAPIExtensions:
				ix.envConfigs = append(ix.envConfigs, Located{File: f.Rel, Doc: d.Index, Obj: d.Obj})
			case d.Kind == "Function" && xp.Group(d.APIVersion) == xp.GroupPkg:
				ix.Functions = append(ix.Functions, Located{File: f.Rel, Doc: d.Index, Obj: d.Obj})
			case d.Kind == "Configuration" && xp.Group(d.APIVersion) == xp.GroupMetaPkg:
				ix.Configs = append(ix.Configs, Located{File: f.Rel, Doc: d.Index, Obj: d.Obj})
			case kustomize.IsKustomization(f.Rel, d.Item, d.APIVersion, d.Kind):
				// Handled below, once every file is known.
			case strings.Contains(xp.Group(d.APIVersion), "."):
				others = append(others, &SampleInfo{File: f.Rel, Doc: d.Index, Item: d.Item, Obj: d.Obj, Source: sampleName(f.Rel, d.Index, d.Item)})
			}
		}
	}
	sort.Slice(ix.scopes, func(i, j int) bool { return len(ix.scopes[i]) > len(ix.scopes[j]) })
	ix.kustomizeScan(files)

	// A document is a sample when its type is a Composition's type, or an
	// XRD's composite or claim type. Kustomize patches are fragments, and
	// test-framework fixtures and unnamed objects are not samples either
	// (the rules verify's examples follow).
	for _, s := range others {
		if ix.PatchFiles[s.File] || fixtures.Reason(s.File, s.Obj) != "" || isTwinFile(s.File) {
			continue
		}
		av, _ := s.Obj["apiVersion"].(string)
		k, _ := s.Obj["kind"].(string)
		isSample := false
		if _, ok := ix.ByType[av+"|"+k]; ok {
			isSample = true
		}
		for _, x := range ix.XRDs {
			if isSample {
				break
			}
			if xp.Group(av) == x.Group && (k == x.Kind || (k == x.ClaimKind && k != "")) {
				isSample = true
			}
		}
		if isSample {
			s.order = len(ix.Samples)
			ix.Samples = append(ix.Samples, s)
			ix.samplesByType[av+"|"+k] = append(ix.samplesByType[av+"|"+k], s)
			ix.samplesByGroup[xp.Group(av)+"|"+k] = append(ix.samplesByGroup[xp.Group(av)+"|"+k], s)
		}
	}
	return ix
}

// sampleName names a sample in reports as verify does: the file and the
// document's 1-based position ("examples/xr.yaml#1"), and for an item of
// a List document its 1-based position in the List ("#1.2").
func sampleName(file string, doc, item int) string {
	if item >= 0 {
		return fmt.Sprintf("%s#%d.%d", file, doc+1, item+1)
	}
	return fmt.Sprintf("%s#%d", file, doc+1)
}

func SourceName(file string, doc, item int) string {
	if item >= 0 {
		return fmt.Sprintf("%s#%d.%d", file, doc, item)
	}
	return fmt.Sprintf("%s#%d", file, doc)
}

func stringMap(m map[string]any) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// XRDFor returns the XRD of a Composition's type nearest to file, or nil.
func (ix *Index) XRDFor(file, typeRef string) *XRDInfo {
	av, kind, _ := strings.Cut(typeRef, "|")
	var best *XRDInfo
	bestScore := -1
	for _, x := range ix.XRDs {
		if x.Group != xp.Group(av) || x.Kind != kind {
			continue
		}
		if sc := CommonPrefix(file, x.File); sc > bestScore {
			best, bestScore = x, sc
		}
	}
	return best
}

// SamplesFor returns the samples for a Composition, nearest first, at most
// max (0 means no limit): what internal/samples.Find, the sample finder
// verify shares, picks among the tree's samples of its type.
func (ix *Index) SamplesFor(c *CompInfo, xrd *XRDInfo, max int) []*SampleInfo {
	av, kind, _ := strings.Cut(c.TypeRef, "|")
	sc := samples.Composition{File: c.File, Name: c.Name, Labels: c.Labels, APIVersion: av, Kind: kind}
	candidates := slices.Clone(ix.samplesByType[av+"|"+kind])
	if xrd != nil && xrd.ClaimKind != "" {
		sc.ClaimGroup, sc.ClaimKind = xrd.Group, xrd.ClaimKind
		candidates = append(candidates, ix.samplesByGroup[xrd.Group+"|"+xrd.ClaimKind]...)
	}
	// In the tree's path order, XRs and claims alike.
	sort.SliceStable(candidates, func(i, j int) bool { return candidates[i].order < candidates[j].order })
	docs := make([]samples.Doc, len(candidates))
	for i, s := range candidates {
		docs[i] = samples.Doc{File: s.File, Index: s.Doc, Item: s.Item, Object: s.Obj}
	}
	// Fixtures were left out of the index.
	found, _ := samples.Find(sc, docs, nil, max)
	bySource := make(map[string]*SampleInfo, len(candidates))
	for _, s := range candidates {
		bySource[s.Source] = s
	}
	res := make([]*SampleInfo, len(found))
	for i, d := range found {
		res[i] = bySource[d.File+d.Suffix()]
	}
	return res
}

// Selects reports whether an XR or claim would use Composition c, as
// internal/samples decides.
func Selects(obj map[string]any, c *CompInfo) bool {
	return samples.Composition{Name: c.Name, Labels: c.Labels}.Selects(obj)
}

// CommonPrefix counts the leading directory segments two paths share.
func CommonPrefix(a, b string) int { return samples.SharedDirs(a, b) }

// ScopeOf returns the package scope of a file: the deepest directory
// holding a crossplane.yaml that contains it, or "" (the whole tree).
func (ix *Index) ScopeOf(file string) string {
	for _, s := range ix.scopes {
		if s == "." || strings.HasPrefix(file, s+"/") {
			if s == "." {
				return ""
			}
			return s
		}
	}
	return ""
}

func InScope(scope, file string) bool {
	return scope == "" || strings.HasPrefix(file, scope+"/")
}

// EnvConfigsFor returns the EnvironmentConfigs a Composition's renders may
// select: those in its package scope, and of several with the same name the
// nearest to the Composition (in a tree of many repositories, each has its
// own).
func (ix *Index) EnvConfigsFor(file string) []map[string]any {
	scope := ix.ScopeOf(file)
	type pick struct {
		obj   map[string]any
		score int
	}
	byName := map[string]pick{}
	var names []string
	for _, e := range ix.envConfigs {
		if !InScope(scope, e.File) {
			continue
		}
		n := jsonobj.String(e.Obj, "metadata", "name")
		sc := CommonPrefix(file, e.File)
		p, ok := byName[n]
		if !ok {
			names = append(names, n)
		}
		if !ok || sc > p.score {
			byName[n] = pick{obj: e.Obj, score: sc}
		}
	}
	out := make([]map[string]any, 0, len(names))
	for _, n := range names {
		out = append(out, byName[n].obj)
	}
	return out
}

// FunctionName resolves the name of the function whose repository is repo
// (such as "function-patch-and-transform") for a file, as
// docs/semantics/conversion.md#function-names orders it: a Function manifest in the file's scope whose package is
// that repository, then a Configuration in scope that depends on it (named
// as Crossplane names dependencies). It returns "" to keep the default,
// and ambiguous true when candidates disagree.
func (ix *Index) FunctionName(file, repo string) (name string, ambiguous bool) {
	scope := ix.ScopeOf(file)
	var names []string
	for _, f := range ix.Functions {
		if !InScope(scope, f.File) {
			continue
		}
		pkg := jsonobj.String(f.Obj, "spec", "package")
		if PackageRepo(pkg) == repo {
			if n := jsonobj.String(f.Obj, "metadata", "name"); n != "" {
				names = appendUnique(names, n)
			}
		}
	}
	if len(names) == 0 {
		for _, c := range ix.Configs {
			if !InScope(scope, c.File) {
				continue
			}
			for _, d := range jsonobj.List(c.Obj, "spec", "dependsOn") {
				if _, pkg := Dependency(d); PackageRepo(pkg) == repo {
					names = appendUnique(names, xp.PackageName(pkg))
				}
			}
		}
	}
	switch len(names) {
	case 0:
		return "", false
	case 1:
		return names[0], false
	}
	return "", true
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// newCompInfo indexes a Composition document of file.
func newCompInfo(file string, d DocInfo) *CompInfo {
	c := &CompInfo{File: file, Doc: d.Index, Item: d.Item, Name: d.Name, Legacy: IsLegacy(d.Obj), ptStep: d.PTStep}
	av := jsonobj.String(d.Obj, "spec", "compositeTypeRef", "apiVersion")
	k := jsonobj.String(d.Obj, "spec", "compositeTypeRef", "kind")
	c.TypeRef = av + "|" + k
	c.Labels = stringMap(jsonobj.Map(d.Obj, "metadata", "labels"))
	if _, ok := jsonobj.Map(d.Obj, "spec")["environment"]; ok && !c.Legacy {
		c.NativeEnv = true
	}
	if a, ok := jsonobj.LookupString(d.Obj, "metadata", "annotations", v2map.Annotation); ok {
		if m, err := v2map.Decode(a); err == nil && m.From.Kind != "" {
			c.From = m.From.APIVersion + "|" + m.From.Kind
		}
	}
	if types, ok := jsonobj.Map(d.Obj, "spec")[ComposedTypesKey].([]any); ok {
		for _, t := range types {
			if s, ok := t.(string); ok {
				c.Composes = append(c.Composes, s)
			}
		}
	}
	return c
}

// newXRDInfo indexes an XRD document of file.
func newXRDInfo(file string, obj map[string]any) *XRDInfo {
	x := &XRDInfo{File: file, Obj: obj, versions: map[string]bool{}}
	x.Group = jsonobj.String(obj, "spec", "group")
	x.Kind = jsonobj.String(obj, "spec", "names", "kind")
	x.ClaimKind = jsonobj.String(obj, "spec", "claimNames", "kind")
	for _, v := range jsonobj.List(obj, "spec", "versions") {
		vm, _ := v.(map[string]any)
		n, _ := vm["name"].(string)
		x.versions[n] = true
		if r, _ := vm["referenceable"].(bool); r || x.Referenced == "" {
			x.Referenced = n
		}
	}
	return x
}
