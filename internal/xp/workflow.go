package xp

import "strings"

// GitHub Actions workflow commands (`::error file=…,line=…::message`)
// escape their text as the runner's command parser expects: '%', CR and LF
// in a message; those and ':' and ',' in a property value.
var (
	workflowData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	workflowProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// EscapeWorkflowData escapes a workflow command's message.
func EscapeWorkflowData(s string) string {
	return workflowData.Replace(s)
}

// EscapeWorkflowProperty escapes a workflow command's property value
// (file, title, …).
func EscapeWorkflowProperty(s string) string {
	return workflowProperty.Replace(s)
}
