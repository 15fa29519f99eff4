package v2e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pkg/errors"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/xpmigrate/xpmigrate/internal/kubetest"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// An object is one document of the migration's output.
type object struct {
	// File is slash-separated, relative to the output directory.
	File string
	// Doc is the document's 0-based index in File; Line its first line.
	Doc, Line int
	Obj       *unstructured.Unstructured
}

func (o object) String() string {
	return o.File + " document " + strconv.Itoa(o.Doc+1) + " (line " + strconv.Itoa(o.Line) + ") " + o.Obj.GetKind() + " " + qualifiedName(o.Obj)
}

func qualifiedName(u *unstructured.Unstructured) string {
	if u.GetNamespace() == "" {
		return u.GetName()
	}
	return u.GetNamespace() + "/" + u.GetName()
}

// A tree is what the migration wrote.
type tree struct {
	// Emitted are the objects of the output that are not in the input:
	// every document of a new file, and each document of a changed file
	// that no document of the file's original equals (compared as the API
	// server reads them), in path and document order.
	Emitted []object
	// XRDGroups are the groups of every XRD in the output, emitted or not.
	XRDGroups map[string]bool
	// V1XRDs are the apiextensions.crossplane.io/v1 XRDs of the input
	// (those the output kept, and those in the originals of changed
	// files): the definitions of the examples that XR twins are made from.
	V1XRDs []object

	in string
	// inDirs caches the documents of the input's directories.
	inDirs map[string][]object
}

var manifestExt = map[string]bool{".yaml": true, ".yml": true, ".json": true}

// readTree compares the output directory out with the input directory in.
// A file of the output that is not YAML or JSON is ignored, as is one that
// is unchanged and does not parse (a Helm template the migration copied).
func readTree(in, out string) (*tree, error) {
	t := &tree{XRDGroups: map[string]bool{}, in: in, inDirs: map[string][]object{}}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() || !manifestExt[strings.ToLower(filepath.Ext(p))] {
			return nil
		}
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return errors.Wrapf(err, "cannot relate %q to %q", p, out)
		}
		now, err := os.ReadFile(p)
		if err != nil {
			return errors.Wrapf(err, "cannot read %q", p)
		}
		was, err := os.ReadFile(filepath.Join(in, rel))
		existed := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return errors.Wrapf(err, "cannot read %q", filepath.Join(in, rel))
		}
		docs, err := manifest.LoadStream(bytes.NewReader(now), rel)
		if err != nil {
			if existed && bytes.Equal(now, was) {
				return nil
			}
			return errors.Wrapf(err, "cannot read the output %q", rel)
		}
		before := map[string]int{}
		if existed && !bytes.Equal(now, was) {
			old, err := manifest.LoadStream(bytes.NewReader(was), rel)
			if err != nil {
				return errors.Wrapf(err, "cannot read the input %q", rel)
			}
			for _, d := range old {
				before[canonical(d.Object)]++
				if isXRDv1(d.Object) {
					t.V1XRDs = append(t.V1XRDs, object{File: filepath.ToSlash(rel), Doc: d.Index, Line: d.Line, Obj: &unstructured.Unstructured{Object: d.Object}})
				}
			}
		}
		for _, d := range docs {
			u := &unstructured.Unstructured{Object: d.Object}
			if d.Object == nil || u.GetAPIVersion() == "" || u.GetKind() == "" {
				continue
			}
			if u.GetKind() == "CompositeResourceDefinition" && u.GroupVersionKind().Group == apiextensions {
				g, _, _ := unstructured.NestedString(u.Object, "spec", "group")
				t.XRDGroups[g] = true
			}
			if existed && bytes.Equal(now, was) {
				if isXRDv1(d.Object) {
					t.V1XRDs = append(t.V1XRDs, object{File: filepath.ToSlash(rel), Doc: d.Index, Line: d.Line, Obj: u})
				}
				continue
			}
			if k := canonical(d.Object); before[k] > 0 {
				before[k]--
				continue
			}
			t.Emitted = append(t.Emitted, object{File: filepath.ToSlash(rel), Doc: d.Index, Line: d.Line, Obj: u})
		}
		return nil
	})
	return t, errors.Wrapf(err, "cannot compare %q with %q", out, in)
}

// canonical is o as JSON with sorted keys.
func canonical(o map[string]any) string {
	b, err := json.Marshal(o)
	if err != nil {
		return "" // manifest decoded it from JSON: it encodes
	}
	return string(b)
}

const apiextensions = "apiextensions.crossplane.io"

func isXRDv1(o map[string]any) bool {
	return o["apiVersion"] == apiextensions+"/v1" && o["kind"] == "CompositeResourceDefinition"
}

func isXRDv2(u *unstructured.Unstructured) bool {
	return u.GetAPIVersion() == apiextensions+"/v2" && u.GetKind() == "CompositeResourceDefinition"
}

// An xrType is the XR kind a v2 XRD defines, validated under its own group.
type xrType struct {
	XRD object
	// Replaced is the v1 XRD that XRD replaced, if known.
	Replaced *object
	// CRD is the XRD's XR CRD under Group, a group of its own: the
	// corpus holds XRDs of the same name with different schemas.
	CRD   *unstructured.Unstructured
	Group string
}

// xrTypes derives the XR CRD of each emitted v2 XRD (a failure to derive
// one is returned per XRD), each under a group of its own named after the
// CRD's content, so that XRDs with equal schemas share one CRD.
func xrTypes(emitted []object) (types []xrType, failed map[string]error) {
	failed = map[string]error{}
	for _, o := range emitted {
		if !isXRDv2(o.Obj) {
			continue
		}
		crd, err := kubetest.CompositeCRDV2(o.Obj)
		if err != nil {
			failed[o.String()] = err
			continue
		}
		crd = renamed(crd)
		g, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		types = append(types, xrType{XRD: o, CRD: crd, Group: g})
	}
	return types, failed
}

// xrdFor returns the type among types whose XRD defines o's group and kind
// and serves its version, nearest to o's file (the longest common
// directory), then first in path order; false when none does.
func xrdFor(types []xrType, o object) (xrType, bool) {
	gvk := o.Obj.GroupVersionKind()
	best, bestDepth, found := xrType{}, -1, false
	for _, t := range types {
		spec, _ := t.XRD.Obj.Object["spec"].(map[string]any)
		group, _ := spec["group"].(string)
		names, _ := spec["names"].(map[string]any)
		if group != gvk.Group || names["kind"] != gvk.Kind || !servesVersion(spec, gvk.Version) {
			continue
		}
		if d := commonDepth(path.Dir(t.XRD.File), path.Dir(o.File)); d > bestDepth {
			best, bestDepth, found = t, d, true
		}
	}
	return best, found
}

// typeFor returns the type of an emitted object: when it is the twin of
// an example of the input (exampleOf), the type whose XRD replaced the
// example's v1 XRD (two v1 XRDs, XIAMPolicy and IAMPolicy, can both become
// IAMPolicy: the example says which); else xrdFor's.
func (t *tree) typeFor(types []xrType, o object) (xrType, bool) {
	if _, xrd, _, ok := t.exampleOf(o, nil); ok {
		gvk := o.Obj.GroupVersionKind()
		for _, ty := range types {
			spec, _ := ty.XRD.Obj.Object["spec"].(map[string]any)
			names, _ := spec["names"].(map[string]any)
			if ty.Replaced != nil && ty.Replaced.File == xrd.File && ty.Replaced.Doc == xrd.Doc &&
				spec["group"] == gvk.Group && names["kind"] == gvk.Kind && servesVersion(spec, gvk.Version) {
				return ty, true
			}
		}
	}
	return xrdFor(types, o)
}

func servesVersion(xrdSpec map[string]any, version string) bool {
	vs, _ := xrdSpec["versions"].([]any)
	for _, v := range vs {
		m, _ := v.(map[string]any)
		if m["name"] == version && m["served"] == true {
			return true
		}
	}
	return false
}

// commonDepth is the number of leading directories a and b share.
func commonDepth(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] && as[n] != "." {
		n++
	}
	return n
}

// asType is o's object with its group replaced by t's.
func asType(o object, t xrType) *unstructured.Unstructured {
	u := o.Obj.DeepCopy()
	u.SetAPIVersion(schema.GroupVersion{Group: t.Group, Version: u.GroupVersionKind().Version}.String())
	return u
}

// sortedCounts renders counts as "key: n" lines, sorted by key.
func sortedCounts(counts map[string]int) []string {
	out := make([]string, 0, len(counts))
	for k, n := range counts {
		out = append(out, k+": "+strconv.Itoa(n))
	}
	sort.Strings(out)
	return out
}

// sourceOf returns the example of the input an XR twin was made from: a
// document in the input directory of the twin's file with the twin's
// name, whose kind is the claim or XR kind of a v1 XRD of the input whose
// XR kind, with or without its X prefix, or claim kind is the twin's (and,
// for a claim, in the twin's namespace), in the twin's group if one is,
// else first in path order; and that XRD's CRD for it (the claim or the
// legacy XR CRD, as Crossplane v1 derives it), under a group of its own.
// The XRD is replaced, when given, if it defines the example's kind: the
// v1 XRD that the twin's v2 XRD replaced (two XRDs may define one kind).
func (t *tree) sourceOf(twin object, replaced *object) (src object, crd *unstructured.Unstructured, ok bool) {
	src, xrd, claim, ok := t.exampleOf(twin, replaced)
	if !ok {
		return object{}, nil, false
	}
	return withCRD(src, xrd, claim)
}

// exampleOf is sourceOf's example, its v1 XRD and whether it is a claim.
func (t *tree) exampleOf(twin object, replaced *object) (src, xrd object, claim, ok bool) {
	dir := path.Dir(twin.File)
	docs, cached := t.inDirs[dir]
	if !cached {
		docs = t.readInputDir(dir)
		t.inDirs[dir] = docs
	}
	for _, d := range docs {
		if d.Obj.GetName() != twin.Obj.GetName() {
			continue
		}
		x, c, found := t.v1XRDFor(d)
		if replaced != nil {
			if isXR, isClaim := defines(*replaced, d.Obj.GroupVersionKind()); isXR || isClaim {
				x, c, found = *replaced, isClaim, true
			}
		}
		if !found || c && d.Obj.GetNamespace() != "" && d.Obj.GetNamespace() != twin.Obj.GetNamespace() || !twins(x, twin.Obj.GetKind()) {
			continue
		}
		if !ok || d.Obj.GroupVersionKind().Group == twin.Obj.GroupVersionKind().Group && src.Obj.GroupVersionKind().Group != twin.Obj.GroupVersionKind().Group {
			src, xrd, claim, ok = d, x, c, true
		}
	}
	return src, xrd, claim, ok
}

// twins reports whether kind is a twin's kind for the v1 XRD: its XR
// kind, with or without the X prefix, or its claim kind.
func twins(xrd object, kind string) bool {
	names, _, _ := unstructured.NestedStringMap(xrd.Obj.Object, "spec", "names")
	claimNames, _, _ := unstructured.NestedStringMap(xrd.Obj.Object, "spec", "claimNames")
	return names["kind"] == kind || names["kind"] == "X"+kind || claimNames != nil && claimNames["kind"] == kind
}

// withCRD returns src under a group of its own and its CRD there.
func withCRD(d, xrd object, claim bool) (src object, crd *unstructured.Unstructured, ok bool) {
	gvk := d.Obj.GroupVersionKind()
	xr, cl, err := kubetest.CompositeCRDs(xrd.Obj)
	if err != nil {
		return object{}, nil, false
	}
	if claim {
		xr = cl
	}
	xr = renamed(xr)
	g, _, _ := unstructured.NestedString(xr.Object, "spec", "group")
	src = d
	src.Obj = d.Obj.DeepCopy()
	src.Obj.SetAPIVersion(schema.GroupVersion{Group: g, Version: gvk.Version}.String())
	return src, xr, true
}

// defines reports whether the v1 XRD x defines gvk as its XR kind or as
// its claim kind.
func defines(x object, gvk schema.GroupVersionKind) (isXR, isClaim bool) {
	spec, _ := x.Obj.Object["spec"].(map[string]any)
	if spec["group"] != gvk.Group || !servesVersion(spec, gvk.Version) {
		return false, false
	}
	names, _ := spec["names"].(map[string]any)
	claimNames, _ := spec["claimNames"].(map[string]any)
	return names["kind"] == gvk.Kind, claimNames != nil && claimNames["kind"] == gvk.Kind
}

// v1XRDFor returns the v1 XRD nearest to o that defines o's group and
// kind, as its XR kind or (claim) its claim kind.
func (t *tree) v1XRDFor(o object) (xrd object, claim, ok bool) {
	bestDepth := -1
	for _, x := range t.V1XRDs {
		isXR, isClaim := defines(x, o.Obj.GroupVersionKind())
		if !isXR && !isClaim {
			continue
		}
		if d := commonDepth(path.Dir(x.File), path.Dir(o.File)); d > bestDepth {
			xrd, claim, ok, bestDepth = x, isClaim, true, d
		}
	}
	return xrd, claim, ok
}

// readInputDir returns the objects of the YAML and JSON files of the
// input directory dir (slash-separated, relative), in path order; files
// that do not parse are left out.
func (t *tree) readInputDir(dir string) []object {
	entries, err := os.ReadDir(filepath.Join(t.in, filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	var out []object
	for _, e := range entries {
		if !e.Type().IsRegular() || !manifestExt[strings.ToLower(filepath.Ext(e.Name()))] {
			continue
		}
		rel := path.Join(dir, e.Name())
		docs, err := manifest.LoadFile(filepath.Join(t.in, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		for _, d := range docs {
			u := &unstructured.Unstructured{Object: d.Object}
			if d.Object != nil && u.GetKind() != "" && u.GetName() != "" {
				out = append(out, object{File: rel, Doc: d.Index, Line: d.Line, Obj: u})
			}
		}
	}
	return out
}

var unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)

// problems are what a refusal names: each unknown field, and each cause
// (field and message) of an invalid object; or, when it names neither,
// its message with group (the object's validation group or name, which
// differ between a twin and its original) left out.
func problems(err error, group string) []string {
	var out []string
	for _, m := range unknownField.FindAllStringSubmatch(err.Error(), -1) {
		out = append(out, "unknown field "+m[1])
	}
	var st kerrors.APIStatus
	if errors.As(err, &st) && st.Status().Details != nil {
		for _, c := range st.Status().Details.Causes {
			if !strings.Contains(c.Message, "unknown field") {
				out = append(out, c.Field+": "+c.Message)
			}
		}
	}
	if len(out) == 0 {
		msg := err.Error()
		if group != "" {
			msg = strings.ReplaceAll(msg, group, "GROUP")
		}
		out = append(out, msg)
	}
	sort.Strings(out)
	return out
}

// inheritedProblems reports whether every problem of a twin's refusal is
// also a problem of its example's refusal: the twin copied them.
func inheritedProblems(twin, source []string) bool {
	have := map[string]bool{}
	for _, p := range source {
		have[p] = true
	}
	for _, p := range twin {
		if !have[p] {
			return false
		}
	}
	return len(twin) > 0
}

// originalOf returns the v1 XRD an emitted v2 XRD replaced: the v1 XRD of
// the input at the same file and document.
func (t *tree) originalOf(xrd object) (object, bool) {
	for _, x := range t.V1XRDs {
		if x.File == xrd.File && x.Doc == xrd.Doc {
			return x, true
		}
	}
	return object{}, false
}

// renamed is crd under a group of its own, named after its content.
func renamed(crd *unstructured.Unstructured) *unstructured.Unstructured {
	crd = crd.DeepCopy()
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	sum := sha256.Sum256([]byte(canonical(crd.Object)))
	g := "v" + hex.EncodeToString(sum[:])[:10] + "." + group
	_ = unstructured.SetNestedField(crd.Object, g, "spec", "group")
	crd.SetName(plural + "." + g)
	return crd
}
