package patchandtransform

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// IsReady runs the checks against o and reports whether all of them pass
// (AND). The first check that fails or errors stops the run. An empty list
// means the default check: the condition Ready has status True.
//
// o is the object read: in the Native dialect the post-apply object, in the
// Function dialect the observed object (whose numbers are float64, so a
// MatchInteger check errors there, as it does in function-patch-and-transform).
//
// Both dialects run the checks alike:
//   - None always passes;
//   - NonEmpty passes when the path exists, whatever the value ("", null and
//     {} included);
//   - MatchString, MatchInteger, MatchTrue and MatchFalse pass when the value
//     is a string, an int64 or a bool equal to the one wanted; a missing path
//     fails without error (so MatchFalse on a missing field is not ready),
//     a value of another type is an error such as `spec.f: not a (int64)
//     number`, and so is a path that cannot be parsed;
//   - MatchCondition passes when the condition of that type has that status.
//     A status that is missing, or that cannot be decoded as a conditioned
//     status (for instance a malformed lastTransitionTime), has no
//     conditions and every condition's status is then ""; a status without
//     that condition gives "Unknown".
//
// They differ in what makes a check invalid. Native treats "" and 0 (its
// "unset" values) as missing fieldPath, matchString and matchInteger, and
// reports `invalid: type "MatchString" requires a match string`,
// `invalid: type "<t>" requires a field path`, `invalid: unknown type "<t>"`
// and so on. Function accepts "" and 0 and compares them literally, and
// reports Kubernetes field errors such as
// `invalid: matchString: Required value: cannot be nil for type MatchString`.
// Every error is wrapped as `cannot run readiness check at index <i>: ...`.
func IsReady(d Dialect, o *fieldpath.Paved, checks []ReadinessCheck) (bool, error) {
	validate, err := readinessCheckValidator(d)
	if err != nil {
		return false, err
	}
	if o == nil {
		o = fieldpath.Pave(map[string]any{})
	}

	if len(checks) == 0 {
		return conditionStatus(o, "Ready") == "True", nil
	}
	for i, c := range checks {
		if d == Native {
			c = nativeUnsetToNil(c)
		}
		if err := validate(c); err != nil {
			return false, &ReadinessCheckError{Index: i, Err: errors.Wrap(err, "invalid")}
		}
		ready, err := runReadinessCheck(o, c)
		if err != nil {
			return false, &ReadinessCheckError{Index: i, Err: err}
		}
		if !ready {
			return false, nil
		}
	}
	return true, nil
}

// readinessCheckValidator returns the dialect's check of one readiness check.
func readinessCheckValidator(d Dialect) (func(ReadinessCheck) error, error) {
	return byDialect(d, validateNativeReadinessCheck, validateFunctionReadinessCheck, "check readiness")
}

// nativeUnsetToNil maps the values a native Composition cannot tell from
// unset (its fields are not pointers) to nil, as the native composer does
// before it runs a check. A native front-end that already did so loses
// nothing.
func nativeUnsetToNil(c ReadinessCheck) ReadinessCheck {
	if c.FieldPath != nil && *c.FieldPath == "" {
		c.FieldPath = nil
	}
	if c.MatchString != nil && *c.MatchString == "" {
		c.MatchString = nil
	}
	if c.MatchInteger != nil && *c.MatchInteger == 0 {
		c.MatchInteger = nil
	}
	return c
}

// validateNativeReadinessCheck reproduces the run-time validation of the
// native composer. The match condition's own fields are not checked there.
func validateNativeReadinessCheck(c ReadinessCheck) error {
	switch c.Type {
	case ReadinessCheckTypeNone:
		return nil
	case ReadinessCheckTypeNonEmpty, ReadinessCheckTypeMatchTrue, ReadinessCheckTypeMatchFalse:
	case ReadinessCheckTypeMatchString:
		if c.MatchString == nil {
			return errors.Errorf("type %q requires a match string", c.Type)
		}
	case ReadinessCheckTypeMatchInteger:
		if c.MatchInteger == nil {
			return errors.Errorf("type %q requires a match integer", c.Type)
		}
	case ReadinessCheckTypeMatchCondition:
		if c.MatchCondition == nil {
			return errors.Errorf("type %q requires a valid match condition", c.Type)
		}
		return nil
	default:
		return errors.Errorf("unknown type %q", c.Type)
	}
	if c.FieldPath == nil {
		return errors.Errorf("type %q requires a field path", c.Type)
	}
	return nil
}

// validateFunctionReadinessCheck reproduces the validation
// function-patch-and-transform runs before each check (the same as its input
// validation). Upstream lets a MatchCondition check without matchCondition
// through and then crashes on it; the core reports it instead.
func validateFunctionReadinessCheck(c ReadinessCheck) error {
	var ferr *field.Error
	switch c.Type {
	case ReadinessCheckTypeNone:
		return nil
	case ReadinessCheckTypeNonEmpty, ReadinessCheckTypeMatchTrue, ReadinessCheckTypeMatchFalse:
	case ReadinessCheckTypeMatchString:
		if c.MatchString == nil {
			ferr = field.Required(field.NewPath("matchString"), "cannot be nil for type MatchString")
		}
	case ReadinessCheckTypeMatchInteger:
		if c.MatchInteger == nil {
			ferr = field.Required(field.NewPath("matchInteger"), "cannot be nil for type MatchInteger")
		}
	case ReadinessCheckTypeMatchCondition:
		switch {
		case c.MatchCondition == nil:
			ferr = field.Required(field.NewPath("matchCondition"), "cannot be nil for type MatchCondition")
		case c.MatchCondition.Type == "":
			ferr = field.Required(field.NewPath("matchCondition", "type"), "cannot be empty for type MatchCondition")
		case c.MatchCondition.Status == "":
			ferr = field.Required(field.NewPath("matchCondition", "status"), "cannot be empty for type MatchCondition")
		}
		if ferr == nil {
			return nil
		}
		return ferr
	default:
		ferr = field.Invalid(field.NewPath("type"), string(c.Type), "unknown readiness check type")
	}
	if ferr == nil && c.FieldPath == nil {
		ferr = field.Required(field.NewPath("fieldPath"), "cannot be empty")
	}
	if ferr == nil {
		return nil
	}
	return ferr
}

// runReadinessCheck runs one valid check.
func runReadinessCheck(o *fieldpath.Paved, c ReadinessCheck) (bool, error) {
	switch c.Type {
	case ReadinessCheckTypeNone:
		return true, nil
	case ReadinessCheckTypeNonEmpty:
		if _, err := getValue(o, *c.FieldPath); err != nil {
			return false, ignoreNotFound(err)
		}
		return true, nil
	case ReadinessCheckTypeMatchString:
		s, err := o.GetString(*c.FieldPath)
		if err != nil {
			return false, ignoreNotFound(err)
		}
		return s == *c.MatchString, nil
	case ReadinessCheckTypeMatchInteger:
		n, err := o.GetInteger(*c.FieldPath)
		if err != nil {
			return false, ignoreNotFound(err)
		}
		return n == *c.MatchInteger, nil
	case ReadinessCheckTypeMatchTrue, ReadinessCheckTypeMatchFalse:
		b, err := o.GetBool(*c.FieldPath)
		if err != nil {
			return false, ignoreNotFound(err)
		}
		return b == (c.Type == ReadinessCheckTypeMatchTrue), nil
	case ReadinessCheckTypeMatchCondition:
		return conditionStatus(o, c.MatchCondition.Type) == c.MatchCondition.Status, nil
	}
	return false, nil
}

// ignoreNotFound drops a fieldpath not-found error: a missing field is not
// ready, not an error.
func ignoreNotFound(err error) error {
	if fieldpath.IsNotFound(err) {
		return nil
	}
	return err
}

// conditionedStatus and condition have the JSON shape, and so the decoding
// rules, of crossplane-runtime's ConditionedStatus and Condition, which both
// engines decode an object's status into before they look up a condition.
// A field of the wrong type or a lastTransitionTime that is not RFC 3339
// makes the whole status undecodable.
type conditionedStatus struct {
	Conditions []condition `json:"conditions,omitempty"`
}

type condition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime"`
	Reason             string      `json:"reason"`
	Message            string      `json:"message,omitempty"`
	ObservedGeneration int64       `json:"observedGeneration,omitempty"`
}

// conditionStatus returns the status of o's condition of type t: "" when o
// has no status or its status cannot be decoded, "Unknown" when the status
// has no such condition.
func conditionStatus(o *fieldpath.Paved, t string) string {
	s := conditionedStatus{}
	if err := o.GetValueInto("status", &s); err != nil {
		return ""
	}
	for _, c := range s.Conditions {
		if c.Type == t {
			return c.Status
		}
	}
	return "Unknown"
}
