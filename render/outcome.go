package render

// Ready condition reasons and statuses, as Crossplane sets them.
const (
	ConditionTypeReady  = "Ready"
	ConditionTypeSynced = "Synced"

	ReasonAvailable        = "Available"
	ReasonCreating         = "Creating"
	ReasonReconcileSuccess = "ReconcileSuccess"
	ReasonReconcileError   = "ReconcileError"
)

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// A ComposedResource is one composed resource as a reconcile leaves it.
type ComposedResource struct {
	// Name is the composition resource name: the template's name, or for
	// an anonymous legacy template the empty string (see Index).
	Name string

	// Index is the template's position in a legacy Composition, -1 for a
	// pipeline.
	Index int

	// Desired is the object the engine would send to the API server: the
	// create or JSON-merge-patch body in legacy mode, the server-side apply
	// body in pipeline mode. Nil when the engine did not render it.
	Desired map[string]any

	// Applied is the object as it would be after the apply
	// (docs/semantics/legacy.md#the-offline-cluster): Desired merged onto the observed object. In pipeline mode it
	// is Desired, the same map: an Outcome is read, never changed.
	Applied map[string]any

	// Rendered is false for a legacy template that failed (warning event,
	// not applied) or a pipeline resource that was not desired.
	Rendered bool

	// Synced and Ready are what the engine reports for this resource.
	Synced bool
	Ready  bool
}

// An Event is a Kubernetes event the reconcile would record on the XR.
type Event struct {
	Type    string
	Reason  string
	Message string
}

// A Result is a non-fatal function result, as `crossplane render -r` prints.
type Result struct {
	Step     string
	Severity string // SEVERITY_NORMAL, SEVERITY_WARNING or SEVERITY_UNSPECIFIED
	Message  string
}

// An Outcome is what one reconcile of one XR produces.
type Outcome struct {
	// XR is the composite resource as the printed XR document shows it
	// (crossplane render's shape: apiVersion, kind, metadata.name and what
	// the engine wrote, including status.conditions).
	XR map[string]any

	// EffectiveXR is the XR as the cluster would keep it after the
	// reconcile: the observed XR with the engine's persisted changes
	// (docs/semantics/pipeline.md#the-effective-xr effectiveXR; for legacy, spec and metadata
	// writes persist as well as status).
	EffectiveXR map[string]any

	// Composed lists the composed resources in template (legacy) or name
	// (pipeline) order.
	Composed []ComposedResource

	// Deleted names observed composed resources that would be deleted
	// (pipeline garbage collection, legacy removed named templates).
	Deleted []string

	// ConnectionDetails are the XR's connection details.
	ConnectionDetails map[string][]byte

	Events  []Event
	Results []Result

	// Context is the pipeline's final context (nil for legacy).
	Context map[string]any
}
