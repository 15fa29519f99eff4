package plan

import (
	"context"
	"slices"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Composed is one composed resource of a legacy XR, as its
// spec.resourceRefs entry names it.
type Composed struct {
	APIVersion, Kind, Name string
	// Object is the live object, nil when it could not be read.
	Object map[string]any
}

// A Composite is a running legacy XR with its claim (nil without one) and
// its composed resources in spec.resourceRefs order.
type Composite struct {
	XR       map[string]any
	Claim    map[string]any
	Composed []Composed
}

// A Legacy platform: its v1 XRDs, its Compositions and its running XRs.
type Legacy struct {
	XRDs         []map[string]any
	Compositions []map[string]any
	Composites   []Composite
}

// An Objects store answers get requests: the cluster (read-only) or
// exported manifests.
type Objects interface {
	// Get returns the object, or nil and why not (cluster.NotFound,
	// cluster.Forbidden, cluster.Unserved).
	Get(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, cluster.State, error)
}

// Manifests are exported objects (kubectl get -o yaml), indexed for Get.
type Manifests struct {
	objs  []map[string]any
	byKey map[string]map[string]any
	// pos is the index in objs of each key's object.
	pos   map[string]int
	kinds map[string]bool
}

func key(group, kind, namespace, name string) string {
	return group + "|" + kind + "|" + namespace + "|" + name
}

// LoadManifests reads the files or directories paths as kubectl's
// exports: YAML or JSON streams whose documents may be Lists.
func LoadManifests(paths ...string) (*Manifests, error) {
	return LoadManifestsMax(-1, paths...)
}

// LoadManifestsMax is LoadManifests for at most limit objects (List items
// counted; no bound when limit is negative): more is an error, found as
// soon as the file that crosses the bound is read.
func LoadManifestsMax(limit int, paths ...string) (*Manifests, error) {
	m := &Manifests{byKey: map[string]map[string]any{}, pos: map[string]int{}, kinds: map[string]bool{}}
	for _, p := range paths {
		docs, err := manifest.LoadPath(p)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read %s", p)
		}
		for _, o := range manifest.Objects(docs) {
			m.add(o)
		}
		if limit >= 0 && len(m.objs) > limit {
			return nil, errors.Errorf("cannot read %s: the exports hold more than %d objects (--max-objects)", p, limit)
		}
	}
	return m, nil
}

// NewManifests indexes objs (Lists are expanded).
func NewManifests(objs ...map[string]any) *Manifests {
	m := &Manifests{byKey: map[string]map[string]any{}, pos: map[string]int{}, kinds: map[string]bool{}}
	for _, o := range objs {
		m.add(o)
	}
	return m
}

func (m *Manifests) add(o map[string]any) {
	if o == nil {
		return
	}
	if items, ok := o["items"].([]any); ok && strings.HasSuffix(jsonobj.AsString(o["kind"]), "List") {
		for _, it := range items {
			if io, ok := it.(map[string]any); ok {
				m.add(io)
			}
		}
		return
	}
	g, _ := xp.SplitAPIVersion(jsonobj.AsString(o["apiVersion"]))
	md, _ := o["metadata"].(map[string]any)
	k := key(g, jsonobj.AsString(o["kind"]), jsonobj.AsString(md["namespace"]), jsonobj.AsString(md["name"]))
	// An object exported twice (kubectl get managed,nopresources lists
	// some twice) is one object: the last read, where it was first read.
	if i, ok := m.pos[k]; ok {
		m.objs[i] = o
	} else {
		m.pos[k] = len(m.objs)
		m.objs = append(m.objs, o)
	}
	m.byKey[k] = o
	m.kinds[g+"|"+jsonobj.AsString(o["kind"])] = true
}

// Objects returns every object once, in file order.
func (m *Manifests) Objects() []map[string]any { return m.objs }

// Get returns the exported object; the namespace is ignored when no
// object of the kind has one of that name in it but a cluster-scoped
// one does. An export cannot tell a kind it does not hold from one that is
// not served: either way the object is NotFound.
func (m *Manifests) Get(_ context.Context, apiVersion, kind, namespace, name string) (map[string]any, cluster.State, error) {
	g, _ := xp.SplitAPIVersion(apiVersion)
	if o, ok := m.byKey[key(g, kind, namespace, name)]; ok {
		return o, cluster.Found, nil
	}
	if o, ok := m.byKey[key(g, kind, "", name)]; ok {
		return o, cluster.Found, nil
	}
	return nil, cluster.NotFound, nil
}

// Legacy reads the legacy platform from the export: v1 XRDs, Compositions
// and every XR of a v1 XRD's kind with its claim and composed resources.
func (m *Manifests) Legacy(ctx context.Context) (*Legacy, error) {
	l := &Legacy{}
	for _, o := range m.objs {
		switch {
		case legacyXRD(o):
			l.XRDs = append(l.XRDs, o)
		case o["apiVersion"] == xp.CompositionAPIVersion && o["kind"] == "Composition":
			l.Compositions = append(l.Compositions, o)
		}
	}
	for _, o := range m.objs {
		g, _ := xp.SplitAPIVersion(jsonobj.AsString(o["apiVersion"]))
		if xrdOf(l.XRDs, g, jsonobj.AsString(o["kind"])) == nil {
			continue
		}
		c, err := composite(ctx, m, o)
		if err != nil {
			return nil, err
		}
		l.Composites = append(l.Composites, c)
	}
	return l, nil
}

// composite follows an XR's claimRef and resourceRefs through objs.
func composite(ctx context.Context, objs Objects, xr map[string]any) (Composite, error) {
	c := Composite{XR: xr}
	spec, _ := xr["spec"].(map[string]any)
	if ref, ok := spec["claimRef"].(map[string]any); ok {
		cl, _, err := objs.Get(ctx, jsonobj.AsString(ref["apiVersion"]), jsonobj.AsString(ref["kind"]), jsonobj.AsString(ref["namespace"]), jsonobj.AsString(ref["name"]))
		if err != nil {
			return c, err
		}
		c.Claim = cl
	}
	refs, _ := spec["resourceRefs"].([]any)
	for _, r := range refs {
		ref, _ := r.(map[string]any)
		cd := Composed{APIVersion: jsonobj.AsString(ref["apiVersion"]), Kind: jsonobj.AsString(ref["kind"]), Name: jsonobj.AsString(ref["name"])}
		o, _, err := objs.Get(ctx, cd.APIVersion, cd.Kind, "", cd.Name)
		if err != nil {
			return c, err
		}
		cd.Object = o
		c.Composed = append(c.Composed, cd)
	}
	return c, nil
}

// legacyXRD reports whether o is an XRD of legacy XRs: scope LegacyCluster
// (or none, at v1), at either version.
func legacyXRD(o map[string]any) bool {
	if o["kind"] != "CompositeResourceDefinition" {
		return false
	}
	switch o["apiVersion"] {
	case xp.GroupAPIExtensions + "/v1", xp.GroupAPIExtensions + "/v2":
		// A v2 API server serves every XRD at both versions; the scope
		// tells (v1 XRDs without one are LegacyCluster).
		scope := jsonobj.Value(o, "spec", "scope")
		return scope == nil || scope == "LegacyCluster"
	}
	return false
}

// xrdOf returns the v1 XRD of the XR type group, kind.
func xrdOf(xrds []map[string]any, group, kind string) map[string]any {
	for _, x := range xrds {
		spec, _ := x["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		if jsonobj.AsString(spec["group"]) == group && jsonobj.AsString(names["kind"]) == kind {
			return x
		}
	}
	return nil
}

// Cluster reads a live cluster with get and list requests only.
type Cluster struct {
	R *cluster.Reader
}

// Get reads one object.
func (c Cluster) Get(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, cluster.State, error) {
	u, st, err := c.R.Get(ctx, apiVersion, kind, namespace, name)
	if u == nil {
		return nil, st, err
	}
	return u.Object, st, err
}

// Legacy reads the legacy platform: the v1 XRDs, the Compositions of the
// types types (every Composition when types is empty) and the XRs that run
// them (internal/cluster's Composites).
func (c Cluster) Legacy(ctx context.Context, types []string) (*Legacy, error) {
	l := &Legacy{}
	xrds, err := c.R.Definitions(ctx)
	if err != nil {
		return nil, errors.Wrap(err, "cannot list the cluster's CompositeResourceDefinitions")
	}
	for _, x := range xrds {
		if legacyXRD(x.Object) {
			l.XRDs = append(l.XRDs, x.Object)
		}
	}
	comps, err := c.R.Compositions(ctx)
	if err != nil {
		return nil, errors.Wrap(err, "cannot list the cluster's Compositions")
	}
	for _, comp := range comps {
		av, _, _ := unstructured.NestedString(comp.Object, "spec", "compositeTypeRef", "apiVersion")
		kind, _, _ := unstructured.NestedString(comp.Object, "spec", "compositeTypeRef", "kind")
		g, _ := xp.SplitAPIVersion(av)
		if len(types) > 0 && !slices.Contains(types, g+"|"+kind) {
			continue
		}
		if xrdOf(l.XRDs, g, kind) == nil {
			// Not a legacy type (a v2 Composition, say).
			continue
		}
		l.Compositions = append(l.Compositions, comp.Object)
		err := c.R.Composites(ctx, comp, func(cc *cluster.Composite) error {
			x := Composite{XR: cc.XR.Object}
			if cc.Claim != nil {
				x.Claim = cc.Claim.Object
			}
			for _, cd := range cc.Composed {
				o := Composed{APIVersion: cd.Ref.APIVersion, Kind: cd.Ref.Kind, Name: cd.Ref.Name}
				if cd.Object != nil {
					o.Object = cd.Object.Object
				}
				x.Composed = append(x.Composed, o)
			}
			l.Composites = append(l.Composites, x)
			return nil
		})
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read the XRs of Composition %q", comp.GetName())
		}
	}
	if m := c.R.Missing(); len(m) > 0 {
		return nil, errors.Errorf("cannot read the legacy platform: missing permission %s", m[0])
	}
	return l, nil
}
