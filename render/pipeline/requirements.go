package pipeline

import (
	"context"
	"sort"
	"strings"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/pkg/errors"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// maxRequirementsIterations bounds the requirements loop: a function is
// called at most this many times plus one.
const maxRequirementsIterations = 5

// A fetcher answers one resource selector. A nil result means nothing was
// found.
type fetcher interface {
	Fetch(sel *fnv1.ResourceSelector) (*fnv1.Resources, error)
}

// runWithRequirements calls r until the requirements it returns stop
// changing (docs/semantics/pipeline.md#the-requirements-loop). Each time they change, the resources they
// select are fetched afresh into the request, and the response's context is
// carried into the next call. A FATAL result ends the loop at once.
func runWithRequirements(ctx context.Context, r Runner, req *fnv1.RunFunctionRequest, f fetcher, d crossplane.Target) (*fnv1.RunFunctionResponse, error) {
	var prev *fnv1.Requirements
	for range maxRequirementsIterations + 1 {
		rsp, err := r.RunFunction(ctx, req)
		if err != nil {
			return nil, err
		}
		if hasFatal(rsp) {
			return rsp, nil
		}

		cur := rsp.GetRequirements()
		if proto.Equal(cur, prev) {
			return rsp, nil
		}
		prev = cur

		req.ExtraResources = make(map[string]*fnv1.Resources)
		if err := fetchAll(f, cur.GetExtraResources(), req.ExtraResources); err != nil {
			return nil, err
		}
		if d == crossplane.V2 {
			req.RequiredResources = make(map[string]*fnv1.Resources)
			if err := fetchAll(f, cur.GetResources(), req.RequiredResources); err != nil {
				return nil, err
			}
		}
		req.Context = rsp.GetContext()
	}
	return nil, errors.Errorf("requirements didn't stabilize after the maximum number of iterations (%d)", maxRequirementsIterations)
}

func fetchAll(f fetcher, sels map[string]*fnv1.ResourceSelector, into map[string]*fnv1.Resources) error {
	names := make([]string, 0, len(sels))
	for name := range sels {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rs, err := f.Fetch(sels[name])
		if err != nil {
			return errors.Wrapf(err, "fetching resources for %s", name)
		}
		if rs == nil {
			// Not found: on the wire the key is present with no items.
			rs = &fnv1.Resources{}
		}
		into[name] = rs
	}
	return nil
}

func hasFatal(rsp *fnv1.RunFunctionResponse) bool {
	for _, r := range rsp.GetResults() {
		if r.GetSeverity() == fnv1.Severity_SEVERITY_FATAL {
			return true
		}
	}
	return false
}

// A candidate is one object of the extra resources pool.
type candidate struct {
	obj        map[string]any
	apiVersion string
	kind       string
	namespace  string
	name       string
	labels     map[string]string
	s          *structpb.Struct
}

func newCandidates(pool []map[string]any) []*candidate {
	out := make([]*candidate, len(pool))
	for i, obj := range pool {
		out[i] = &candidate{
			obj:        obj,
			apiVersion: jsonobj.String(obj, "apiVersion"),
			kind:       jsonobj.String(obj, "kind"),
			namespace:  jsonobj.String(obj, "metadata", "namespace"),
			name:       jsonobj.String(obj, "metadata", "name"),
			labels:     nestedStringMap(obj, "metadata", "labels"),
		}
	}
	return out
}

func (c *candidate) resource() (*fnv1.Resource, error) {
	if c.s == nil {
		s, err := toStruct(c.obj)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot marshal extra resource %q", c.name)
		}
		c.s = s
	}
	return &fnv1.Resource{Resource: c.s}, nil
}

// is reports whether the candidate is of the selector's kind. The API server
// serves every version of a kind, so a cluster fetch (anyVersion) matches on
// API group and kind; crossplane render compares the apiVersion string.
// EnvironmentConfigs match across v1alpha1 and v1beta1 in both cases
// (D41, docs/reference/gaps.md#known-gaps): they have one schema, and without this a render of a
// pipeline fed the v1alpha1 EnvironmentConfigs a legacy Composition used
// would silently get none.
func (c *candidate) is(sel *fnv1.ResourceSelector, anyVersion bool) bool {
	if c.kind != sel.GetKind() {
		return false
	}
	if c.apiVersion == sel.GetApiVersion() {
		return true
	}
	group := func(av string) string {
		if i := strings.Index(av, "/"); i >= 0 {
			return av[:i]
		}
		return ""
	}
	if group(c.apiVersion) != group(sel.GetApiVersion()) {
		return false
	}
	return anyVersion || (c.kind == "EnvironmentConfig" && group(c.apiVersion) == xp.GroupAPIExtensions)
}

// resourceAs returns the candidate as the API server would serve it at
// apiVersion.
func (c *candidate) resourceAs(apiVersion string) (*fnv1.Resource, error) {
	r, err := c.resource()
	if err != nil || apiVersion == "" || apiVersion == c.apiVersion {
		return r, err
	}
	s := proto.Clone(r.GetResource()).(*structpb.Struct) //nolint:forcetypeassert // Clone returns the type it is given.
	s.Fields["apiVersion"] = structpb.NewStringValue(apiVersion)
	return &fnv1.Resource{Resource: s}, nil
}

func (c *candidate) hasLabels(want map[string]string) bool {
	for k, v := range want {
		got, ok := c.labels[k]
		if !ok || got != v {
			return false
		}
	}
	return true
}

// A filteringFetcher answers selectors the way `crossplane render` v1.20
// does (docs/semantics/pipeline.md#crossplane-render): candidates must have exactly the selector's
// apiVersion string and kind; the first whose name equals the selector's
// matchName is the only item; otherwise every candidate whose labels hold
// the selector's matchLabels is an item, in pool order. An empty pool or a
// nil selector finds nothing. In dialect V2 a selector's namespace must
// match too.
type filteringFetcher struct {
	pool    []*candidate
	dialect crossplane.Target
}

func (f *filteringFetcher) Fetch(sel *fnv1.ResourceSelector) (*fnv1.Resources, error) {
	if len(f.pool) == 0 || sel == nil {
		return nil, nil
	}
	out := &fnv1.Resources{}
	for _, c := range f.pool {
		if !c.is(sel, false) {
			continue
		}
		if f.dialect == crossplane.V2 && sel.Namespace != nil && c.namespace != sel.GetNamespace() {
			continue
		}
		// crank compares matchName even for a label selector, whose
		// matchName reads as "": an unnamed candidate matches it by name.
		if sel.GetMatchName() == c.name {
			r, err := c.resourceAs(sel.GetApiVersion())
			if err != nil {
				return nil, err
			}
			out.Items = []*fnv1.Resource{r}
			return out, nil
		}
		if ml := sel.GetMatchLabels(); ml != nil && c.hasLabels(ml.GetLabels()) {
			r, err := c.resourceAs(sel.GetApiVersion())
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, r)
		}
	}
	return out, nil
}

// A clusterFetcher answers selectors the way the real composer does against
// an API server holding the pool (docs/semantics/pipeline.md#the-requirements-loop): get by exact
// apiVersion, kind and name (and namespace in V2), or list by apiVersion,
// kind and label equality. V1 keeps pool order; V2 sorts by namespace/name.
type clusterFetcher struct {
	pool    []*candidate
	dialect crossplane.Target
}

func (f *clusterFetcher) Fetch(sel *fnv1.ResourceSelector) (*fnv1.Resources, error) {
	if sel == nil {
		if f.dialect == crossplane.V2 {
			return nil, errors.New("you must specify a resource selector")
		}
		return nil, errors.New("resource selector should not be nil")
	}
	switch m := sel.GetMatch().(type) {
	case *fnv1.ResourceSelector_MatchName:
		for _, c := range f.pool {
			if !c.is(sel, true) || c.name != m.MatchName {
				continue
			}
			if f.dialect == crossplane.V2 && c.namespace != sel.GetNamespace() {
				continue
			}
			r, err := c.resourceAs(sel.GetApiVersion())
			if err != nil {
				return nil, err
			}
			return &fnv1.Resources{Items: []*fnv1.Resource{r}}, nil
		}
		return nil, nil
	case *fnv1.ResourceSelector_MatchLabels:
		var found []*candidate
		for _, c := range f.pool {
			if !c.is(sel, true) || !c.hasLabels(m.MatchLabels.GetLabels()) {
				continue
			}
			if f.dialect == crossplane.V2 && sel.GetNamespace() != "" && c.namespace != sel.GetNamespace() {
				continue
			}
			found = append(found, c)
		}
		if f.dialect == crossplane.V2 {
			sort.SliceStable(found, func(i, j int) bool {
				return found[i].namespace+"/"+found[i].name < found[j].namespace+"/"+found[j].name
			})
		}
		out := &fnv1.Resources{Items: make([]*fnv1.Resource, 0, len(found))}
		for _, c := range found {
			r, err := c.resourceAs(sel.GetApiVersion())
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, r)
		}
		return out, nil
	}
	if f.dialect == crossplane.V2 {
		return nil, errors.Errorf("unsupported required resource selector type %T", sel.GetMatch())
	}
	return nil, errors.New("cannot get extra resource by name: unknown resource selector type")
}
