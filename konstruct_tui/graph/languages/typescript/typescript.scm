;; TypeScript / TSX / JavaScript: one query, so each file's tree is walked once; the extractor
;; dispatches on capture names. Compiled for both the `typescript` and the `tsx` grammar.

;; --- Definitions: the capture name after `definition.` is the symbol kind; the defined name is
;; the node's `name` field. Nesting (`Class.method`) is computed from the enclosing definitions,
;; and definitions local to a function body are dropped, in Python.
(function_declaration name: (identifier)) @definition.function
(generator_function_declaration name: (identifier)) @definition.function
(function_signature name: (identifier)) @definition.function
(class_declaration name: (_)) @definition.class
(abstract_class_declaration name: (_)) @definition.class
(interface_declaration name: (_)) @definition.interface
(type_alias_declaration name: (_)) @definition.type
(enum_declaration name: (_)) @definition.enum
(internal_module name: (_)) @definition.namespace
(method_definition name: (_)) @definition.method
(method_signature name: (_)) @definition.method
(abstract_method_signature name: (_)) @definition.method
(variable_declarator name: [(identifier) (object_pattern) (array_pattern)]) @definition.variable

;; --- Module dependencies: static imports (incl. `import x = require()`), re-exports with a
;; source, local export lists, dynamic `import("...")` and `require("...")` with a literal string
;; (a template literal without substitutions counts), triple-slash `<reference path>` directives.
(import_statement) @import
(export_statement source: (_)) @reexport
(export_statement !source) @export
(call_expression
  function: (import)
  arguments: (arguments . [(string (string_fragment) @specifier)
                           (template_string . (string_fragment) @specifier .)]))
(call_expression
  function: (identifier) @function
  arguments: (arguments . [(string (string_fragment) @specifier)
                           (template_string . (string_fragment) @specifier .)])
  (#eq? @function "require"))
((comment) @reference
  (#match? @reference "^///[ \t]*<reference[ \t]+path="))

;; --- Uses: plain names, and `qualifier.Name` pairs for namespace imports (`ns.fn()`, `ns.Type`,
;; `<ns.Component/>`).
[(identifier) (type_identifier) (shorthand_property_identifier)] @use
(member_expression object: (identifier) @qualifier property: (property_identifier) @member)
(nested_type_identifier module: (identifier) @qualifier name: (type_identifier) @member)

;; --- Member-level facts (_ts_types.py): the written types of locals, parameters and fields
;; (`x: T`, `x = new T()`, `x = f().g()`), return types, what unannotated functions return, class
;; heritage, and members used on receivers that are not a bare name (`this.x.m`, `f().m`, `xs[0].m`).
(variable_declarator name: (identifier)) @typed
(variable_declarator name: (object_pattern) value: (_)) @typed
(required_parameter pattern: (identifier)) @typed
(optional_parameter pattern: (identifier)) @typed
(required_parameter pattern: (object_pattern)) @typed
(arrow_function parameter: (identifier) @param)
(for_in_statement left: (identifier) @param)
(catch_clause parameter: (identifier) @param)
(public_field_definition name: [(property_identifier) (private_property_identifier) (string)] type: (type_annotation)) @typed
(public_field_definition name: [(property_identifier) (private_property_identifier)] value: (new_expression)) @typed
(property_signature name: [(property_identifier) (string)] type: (type_annotation)) @typed
(function_declaration return_type: (type_annotation) @returns)
(function_signature return_type: (type_annotation) @returns)
(method_definition return_type: (type_annotation) @returns)
(method_signature return_type: (type_annotation) @returns)
(abstract_method_signature return_type: (type_annotation) @returns)
(variable_declarator value: (arrow_function return_type: (type_annotation) @returns))
(public_field_definition value: (arrow_function return_type: (type_annotation) @returns))
(public_field_definition value: [(arrow_function) (function_expression)] @callable)
(method_definition "get" name: (_) @accessor)
;; `get client(): Promise<C>;` in an interface (or abstract in a class): read like a field, not called
(method_signature "get" name: (_) @accessor)
(abstract_method_signature "get" name: (_) @accessor)
(return_statement [(new_expression) (call_expression) (member_expression) (this) (identifier) (await_expression)
                   (as_expression) (parenthesized_expression) (non_null_expression) (object)] @returned)
([(variable_declarator) (public_field_definition)]
  value: (arrow_function body: [(new_expression) (call_expression) (member_expression) (as_expression)
                                (parenthesized_expression)] @returned))
(assignment_expression
  left: (member_expression object: (this) property: [(property_identifier) (private_property_identifier)])
  right: [(new_expression) (call_expression) (member_expression) (identifier) (await_expression) (as_expression)
          (parenthesized_expression) (non_null_expression) (binary_expression)] @field.value)
(type_alias_declaration value: [(type_identifier) (nested_type_identifier) (generic_type) (type_query)] @alias)
(public_field_definition
  name: [(property_identifier) (private_property_identifier)]
  value: [(call_expression) (member_expression) (identifier) (await_expression) (as_expression)
          (parenthesized_expression) (non_null_expression)] @field.init)
(type_annotation [(object_type) (intersection_type)] @shape)
;; `t: {tracer: Tracer} | undefined` (the union `written_type` reads as its one non-nullish part)
(type_annotation (union_type [(object_type) (intersection_type)] @shape))
(type_annotation (union_type (union_type [(object_type) (intersection_type)] @shape)))  ; `| {...} | undefined`, `{...} | null | undefined`
((type_annotation (generic_type name: (type_identifier) @_promise
                                type_arguments: (type_arguments . [(object_type) (intersection_type)] @shape .)))
 (#eq? @_promise "Promise"))  ; `async function f(): Promise<{client: Client}>`
(type_annotation (union_type (parenthesized_type [(object_type) (intersection_type)] @shape)))
(subscript_expression index: (string (string_fragment) @keyed))
(binary_expression left: (identifier) operator: "instanceof" right: [(identifier) (member_expression)]) @narrow
(lookup_type . (_) (literal_type (string (string_fragment)))) @lookup
(class_declaration (class_heritage) @heritage)
(abstract_class_declaration (class_heritage) @heritage)
(interface_declaration (extends_type_clause) @heritage)
(member_expression
  object: [(member_expression) (call_expression) (subscript_expression) (parenthesized_expression)
           (non_null_expression) (as_expression) (this) (super) (new_expression) (await_expression)]
  property: (property_identifier) @chained)
;; Declared signatures, for contextual typing of callback parameters (_ts_contexts.py).
(function_declaration parameters: (formal_parameters) @signature)
(generator_function_declaration parameters: (formal_parameters) @signature)
(function_signature parameters: (formal_parameters) @signature)
(method_definition parameters: (formal_parameters) @signature)
(method_signature parameters: (formal_parameters) @signature)
(abstract_method_signature parameters: (formal_parameters) @signature)
(variable_declarator value: (arrow_function parameters: (formal_parameters) @signature))
(variable_declarator value: (function_expression parameters: (formal_parameters) @signature))
(public_field_definition value: (arrow_function parameters: (formal_parameters) @signature))
(public_field_definition value: (function_expression parameters: (formal_parameters) @signature))
(type_alias_declaration value: (_) @callsig)
(interface_declaration body: (interface_body (call_signature)) @callsig)
(property_signature name: (property_identifier) type: (type_annotation)) @prop
(method_signature name: (property_identifier)) @prop
(public_field_definition name: (property_identifier)) @prop
(arguments (object) @argobject)
(variable_declarator type: (type_annotation) value: (object) @argobject)
(return_statement (object) @argobject)
(public_field_definition type: (type_annotation) value: (object) @argobject)
(satisfies_expression . (object) @argobject)
(pair value: (object) @argobject)
(arrow_function body: (parenthesized_expression (object) @argobject))
