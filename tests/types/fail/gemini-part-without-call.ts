// A Gemini Part is not a call until it holds a functionCall (a text part would be refused at runtime):
// pass part.functionCall, or a Part narrowed to one with a functionCall.
import type { Part } from "@google/genai";
import { initialize } from "toolgate";
const tg = await initialize();
declare const part: Part;
tg.branch().match(part);
