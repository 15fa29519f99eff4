package migrate

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/functions"
	"github.com/xpmigrate/xpmigrate/convert/migrate/kustomize"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/samples"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// An index is what the scan learned about the whole tree.
type index struct {
	compositions []*compInfo
	// byType holds Compositions by compositeTypeRef "apiVersion|kind".
	byType map[string][]*compInfo

	xrds []*xrdInfo
	// samples are the documents that may be XRs or claims, by
	// "apiVersion|kind" and by "group|kind".
	samples        []*sampleInfo
	samplesByType  map[string][]*sampleInfo
	samplesByGroup map[string][]*sampleInfo
	// byPosition holds Compositions by "file#doc.item".
	byPosition map[string]*compInfo

	envConfigs []located
	functions  []located
	configs    []located

	// patchFiles are the files kustomizations use as patches.
	patchFiles map[string]bool
	// kustomize are the kustomize findings, by file.
	kustomize map[string][]Finding

	// scopes are the directories that hold a crossplane.yaml, deepest
	// first; they bound function-name resolution.
	scopes []string
}

// A located is an object and where it is.
type located struct {
	file string
	doc  int
	obj  map[string]any
}

type compInfo struct {
	file      string
	doc, item int
	name      string
	typeRef   string // "apiVersion|kind"
	// from is, for a v2 conversion, the legacy type it was converted
	// from ("apiVersion|kind", its v2-mapping annotation), else "".
	from   string
	labels map[string]string
	// composes are the types its templates compose ("apiVersion|kind").
	composes []string
	legacy   bool
	// nativeEnv reports a mode Pipeline Composition with spec.environment,
	// which the converter rewrites into a function-environment-configs
	// step.
	nativeEnv bool
	// ptStep is the index the patch-and-transform step gets once
	// converted.
	ptStep int
}

type xrdInfo struct {
	file       string
	obj        map[string]any
	group      string
	kind       string
	claimKind  string
	versions   map[string]bool
	referenced string // referenceable version
}

type sampleInfo struct {
	order  int // position in index.samples: path order
	file   string
	doc    int
	item   int
	obj    map[string]any
	source string
}

// buildIndex indexes the scanned files.
func buildIndex(files []*scanned) *index {
	ix := &index{byType: map[string][]*compInfo{}, patchFiles: map[string]bool{}, kustomize: map[string][]Finding{},
		samplesByType: map[string][]*sampleInfo{}, samplesByGroup: map[string][]*sampleInfo{}, byPosition: map[string]*compInfo{}}
	var others []*sampleInfo
	fixtures := samples.NewFilter(nil)
	for _, f := range files {
		if f.reason != "" {
			continue
		}
		if base := path.Base(f.rel); base == "crossplane.yaml" {
			ix.scopes = append(ix.scopes, path.Dir(f.rel))
		}
		for _, d := range f.docs {
			if d.obj == nil {
				continue
			}
			fixtures.Observe(f.rel, d.obj)
			switch {
			case isComposition(d.apiVersion, d.kind):
				c := newCompInfo(f.rel, d)
				ix.compositions = append(ix.compositions, c)
				ix.byType[c.typeRef] = append(ix.byType[c.typeRef], c)
				ix.byPosition[sourceName(c.file, c.doc, c.item)] = c
			case isXRD(d.apiVersion, d.kind):
				x := newXRDInfo(f.rel, d.obj)
				ix.xrds = append(ix.xrds, x)
			case d.kind == "EnvironmentConfig" && xp.Group(d.apiVersion) == xp.GroupAPIExtensions:
				ix.envConfigs = append(ix.envConfigs, located{file: f.rel, doc: d.index, obj: d.obj})
			case d.kind == "Function" && xp.Group(d.apiVersion) == xp.GroupPkg:
				ix.functions = append(ix.functions, located{file: f.rel, doc: d.index, obj: d.obj})
			case d.kind == "Configuration" && xp.Group(d.apiVersion) == xp.GroupMetaPkg:
				ix.configs = append(ix.configs, located{file: f.rel, doc: d.index, obj: d.obj})
			case kustomize.IsKustomization(f.rel, d.item, d.apiVersion, d.kind):
				// Handled below, once every file is known.
			case strings.Contains(xp.Group(d.apiVersion), "."):
				others = append(others, &sampleInfo{file: f.rel, doc: d.index, item: d.item, obj: d.obj, source: sampleName(f.rel, d.index, d.item)})
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
		if ix.patchFiles[s.file] || fixtures.Reason(s.file, s.obj) != "" || isTwinFile(s.file) {
			continue
		}
		av, _ := s.obj["apiVersion"].(string)
		k, _ := s.obj["kind"].(string)
		isSample := false
		if _, ok := ix.byType[av+"|"+k]; ok {
			isSample = true
		}
		for _, x := range ix.xrds {
			if isSample {
				break
			}
			if xp.Group(av) == x.group && (k == x.kind || (k == x.claimKind && k != "")) {
				isSample = true
			}
		}
		if isSample {
			s.order = len(ix.samples)
			ix.samples = append(ix.samples, s)
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

func sourceName(file string, doc, item int) string {
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

// xrdFor returns the XRD of a Composition's type nearest to file, or nil.
func (ix *index) xrdFor(file, typeRef string) *xrdInfo {
	av, kind, _ := strings.Cut(typeRef, "|")
	var best *xrdInfo
	bestScore := -1
	for _, x := range ix.xrds {
		if x.group != xp.Group(av) || x.kind != kind {
			continue
		}
		if sc := commonPrefix(file, x.file); sc > bestScore {
			best, bestScore = x, sc
		}
	}
	return best
}

// samplesFor returns the samples for a Composition, nearest first, at most
// max (0 means no limit): what internal/samples.Find, the sample finder
// verify shares, picks among the tree's samples of its type.
func (ix *index) samplesFor(c *compInfo, xrd *xrdInfo, max int) []*sampleInfo {
	av, kind, _ := strings.Cut(c.typeRef, "|")
	sc := samples.Composition{File: c.file, Name: c.name, Labels: c.labels, APIVersion: av, Kind: kind}
	candidates := slices.Clone(ix.samplesByType[av+"|"+kind])
	if xrd != nil && xrd.claimKind != "" {
		sc.ClaimGroup, sc.ClaimKind = xrd.group, xrd.claimKind
		candidates = append(candidates, ix.samplesByGroup[xrd.group+"|"+xrd.claimKind]...)
	}
	// In the tree's path order, XRs and claims alike.
	sort.SliceStable(candidates, func(i, j int) bool { return candidates[i].order < candidates[j].order })
	docs := make([]samples.Doc, len(candidates))
	for i, s := range candidates {
		docs[i] = samples.Doc{File: s.file, Index: s.doc, Item: s.item, Object: s.obj}
	}
	// Fixtures were left out of the index.
	found, _ := samples.Find(sc, docs, nil, max)
	bySource := make(map[string]*sampleInfo, len(candidates))
	for _, s := range candidates {
		bySource[s.source] = s
	}
	res := make([]*sampleInfo, len(found))
	for i, d := range found {
		res[i] = bySource[d.File+d.Suffix()]
	}
	return res
}

// selects reports whether an XR or claim would use Composition c, as
// internal/samples decides.
func selects(obj map[string]any, c *compInfo) bool {
	return samples.Composition{Name: c.name, Labels: c.labels}.Selects(obj)
}

// commonPrefix counts the leading directory segments two paths share.
func commonPrefix(a, b string) int { return samples.SharedDirs(a, b) }

// scopeOf returns the package scope of a file: the deepest directory
// holding a crossplane.yaml that contains it, or "" (the whole tree).
func (ix *index) scopeOf(file string) string {
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

func inScope(scope, file string) bool {
	return scope == "" || strings.HasPrefix(file, scope+"/")
}

// envConfigsFor returns the EnvironmentConfigs a Composition's renders may
// select: those in its package scope, and of several with the same name the
// nearest to the Composition (in a tree of many repositories, each has its
// own).
func (ix *index) envConfigsFor(file string) []map[string]any {
	scope := ix.scopeOf(file)
	type pick struct {
		obj   map[string]any
		score int
	}
	byName := map[string]pick{}
	var names []string
	for _, e := range ix.envConfigs {
		if !inScope(scope, e.file) {
			continue
		}
		n := jsonobj.String(e.obj, "metadata", "name")
		sc := commonPrefix(file, e.file)
		p, ok := byName[n]
		if !ok {
			names = append(names, n)
		}
		if !ok || sc > p.score {
			byName[n] = pick{obj: e.obj, score: sc}
		}
	}
	out := make([]map[string]any, 0, len(names))
	for _, n := range names {
		out = append(out, byName[n].obj)
	}
	return out
}

// functionName resolves the name of the function whose repository is repo
// (such as "function-patch-and-transform") for a file, as conversion.md
// §4.3 orders it: a Function manifest in the file's scope whose package is
// that repository, then a Configuration in scope that depends on it (named
// as Crossplane names dependencies). It returns "" to keep the default,
// and ambiguous true when candidates disagree.
func (ix *index) functionName(file, repo string) (name string, ambiguous bool) {
	scope := ix.scopeOf(file)
	var names []string
	for _, f := range ix.functions {
		if !inScope(scope, f.file) {
			continue
		}
		pkg := jsonobj.String(f.obj, "spec", "package")
		if functions.PackageRepo(pkg) == repo {
			if n := jsonobj.String(f.obj, "metadata", "name"); n != "" {
				names = appendUnique(names, n)
			}
		}
	}
	if len(names) == 0 {
		for _, c := range ix.configs {
			if !inScope(scope, c.file) {
				continue
			}
			for _, d := range jsonobj.List(c.obj, "spec", "dependsOn") {
				if _, pkg := functions.Dependency(d); functions.PackageRepo(pkg) == repo {
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
func newCompInfo(file string, d docInfo) *compInfo {
	c := &compInfo{file: file, doc: d.index, item: d.item, name: d.name, legacy: isLegacy(d.obj), ptStep: d.ptStep}
	av := jsonobj.String(d.obj, "spec", "compositeTypeRef", "apiVersion")
	k := jsonobj.String(d.obj, "spec", "compositeTypeRef", "kind")
	c.typeRef = av + "|" + k
	c.labels = stringMap(jsonobj.Map(d.obj, "metadata", "labels"))
	if _, ok := jsonobj.Map(d.obj, "spec")["environment"]; ok && !c.legacy {
		c.nativeEnv = true
	}
	if a, ok := jsonobj.LookupString(d.obj, "metadata", "annotations", v2map.Annotation); ok {
		if m, err := v2map.Decode(a); err == nil && m.From.Kind != "" {
			c.from = m.From.APIVersion + "|" + m.From.Kind
		}
	}
	if types, ok := jsonobj.Map(d.obj, "spec")[composedTypesKey].([]any); ok {
		for _, t := range types {
			if s, ok := t.(string); ok {
				c.composes = append(c.composes, s)
			}
		}
	}
	return c
}

// newXRDInfo indexes an XRD document of file.
func newXRDInfo(file string, obj map[string]any) *xrdInfo {
	x := &xrdInfo{file: file, obj: obj, versions: map[string]bool{}}
	x.group = jsonobj.String(obj, "spec", "group")
	x.kind = jsonobj.String(obj, "spec", "names", "kind")
	x.claimKind = jsonobj.String(obj, "spec", "claimNames", "kind")
	for _, v := range jsonobj.List(obj, "spec", "versions") {
		vm, _ := v.(map[string]any)
		n, _ := vm["name"].(string)
		x.versions[n] = true
		if r, _ := vm["referenceable"].(bool); r || x.referenced == "" {
			x.referenced = n
		}
	}
	return x
}
