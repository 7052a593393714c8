// langchainTools has no strict option (LangChain's bindTools carries it): a typo or a copied
// toolSet option must not compile.
import { initialize } from "toolgate";
import { langchainTools } from "toolgate/langchain";

const tg = await initialize();
langchainTools(tg.branch(), { strict: true });
