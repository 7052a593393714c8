// A "db" record names its metadata node_metadata: reading .metadata from one must not compile.
import type { FunctionCalling } from "toolgate";
declare const fc: FunctionCalling;
void fc.toDict("db").metadata;
