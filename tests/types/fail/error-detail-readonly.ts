// An error's detail is what the server said: code reads it, never writes it.
import { ToolgateError } from "toolgate";
declare const e: ToolgateError;
if (e.transport) e.transport.httpStatus = 200;
