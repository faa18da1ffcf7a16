package gcacw

// WithoutHouseRules is withoutHouseRules for the external tests.
var WithoutHouseRules = withoutHouseRules
