; Everything extraction needs from a Java file, in one pass over the tree. java.py reads the
; captures; qualified names (Outer.Inner.method) come from byte-range nesting there.

(package_declaration [(scoped_identifier) (identifier)] @package)
(import_declaration) @import

; Type and member definitions.
(class_declaration name: (identifier)) @definition.class
(interface_declaration name: (identifier)) @definition.interface
(enum_declaration name: (identifier)) @definition.enum
(record_declaration name: (identifier)) @definition.record
(annotation_type_declaration name: (identifier)) @definition.annotation
(method_declaration name: (identifier)) @definition.method
(constructor_declaration name: (identifier)) @definition.constructor
(compact_constructor_declaration name: (identifier)) @definition.constructor
(annotation_type_element_declaration name: (identifier)) @definition.method
(enum_constant name: (identifier)) @definition.constant
(field_declaration declarator: (variable_declarator name: (identifier) @field))
(constant_declaration declarator: (variable_declarator name: (identifier) @field))

; Uses. Type names wherever a type is written; capitalised identifiers in expressions (the
; `Helper` of `Helper.compute()`, annotation names, `Util::apply`); and dotted paths, which carry
; fully qualified names (`java.util.List`, `com.acme.Price.of(...)`) and `Outer.Inner`.
(type_identifier) @type
(identifier) @name
(scoped_type_identifier) @chain
(field_access) @chain
(scoped_identifier) @chain

; Type information for descriptor dependencies (signatures.py): declared variable types and
; the call sites whose callee signatures a class file will name.
(local_variable_declaration) @variable
(field_declaration) @variable
(constant_declaration) @variable
(formal_parameter) @variable
(spread_parameter) @variable
(catch_formal_parameter) @variable
(enhanced_for_statement) @variable
(resource type: (_)) @variable
(instanceof_expression name: (identifier)) @variable
(method_invocation) @call
(method_reference) @reference
(object_creation_expression) @new
(switch_label) @case
(lambda_expression) @lambda
