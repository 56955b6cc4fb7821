;; Go: one query, so each file's tree is walked once; the extractor dispatches on capture names.

;; --- Definitions: the capture name after `definition.` is the symbol kind; the defined names are
;; the node's `name` fields. Methods are qualified by their receiver type (`Type.Method`) and
;; definitions inside function bodies dropped, in Python.
(function_declaration name: (identifier)) @definition.function
(method_declaration name: (field_identifier)) @definition.method
(type_spec name: (type_identifier)) @definition.type
(type_alias name: (type_identifier)) @definition.type
(const_spec name: (identifier)) @definition.constant
(var_spec name: (identifier)) @definition.variable

;; --- The package clause and each import spec (path, and alias / `.` / `_` if any).
(package_clause (package_identifier) @package)
(import_spec) @import

;; --- Uses: bare names (same-package and dot-import references) and `pkg.Name` pairs (qualified
;; calls, values and types of imported packages).
[(identifier) (type_identifier)] @use
(selector_expression operand: (identifier) @qualifier field: (field_identifier) @member)
(qualified_type package: (package_identifier) @qualifier name: (type_identifier) @member)

;; Member-level facts (_go_members.py): declarations that type names (variables, parameters,
;; receivers), function and method results, struct fields, and every selector `x.M`.
(var_spec) @typed
(parameter_declaration name: (identifier) type: (_)) @typed
(short_var_declaration) @short
(range_clause) @range
(function_declaration result: (_)) @returns
(method_declaration result: (_)) @returns
(type_spec name: (type_identifier) type: (interface_type)) @interface
(type_spec name: (type_identifier) type: (struct_type)) @struct
(type_alias name: (type_identifier) type: (_)) @alias
(selector_expression) @selector
