<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ActionBar</name>
    <message>
        <location filename="../../inspector/gui/features/moves/action_bar.py" line="+42"/>
        <source>keep dtype</source>
        <extracomment>The combo boxes&apos; choices: (shown text, data). The shown texts are translated where they are shown (``translate(&quot;ActionBar&quot;, label)``); dtype names stay as PyTorch spells them, and the data (a dtype, a ``BenchMode`` value) never changes with the language.</extracomment>
        <translation>保持数据类型</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>forward</source>
        <extracomment>``BenchMode.label`` of each mode, marked for translation (core has no Qt).</extracomment>
        <translation>前向传播</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>train step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The benchmark&apos;s input: a shape such as 1,3,224,224; several inputs separated by &apos;;&apos; (10,32,512; 20,32,512 for a Transformer&apos;s src and tgt), each with an optional :dtype (8,128:int64 for token ids). Empty: the model&apos;s own example input. Enter starts the benchmark.</source>
        <extracomment>The same cap as the CLI&apos;s --runs: the core keeps every sample of a measurement.</extracomment>
        <translation>基准测试的输入：形状，例如 1,3,224,224；多个输入用 &apos;;&apos; 分隔（Transformer 的 src 和 tgt 写作 10,32,512; 20,32,512），每个输入可附加 :dtype（词元 ID 写作 8,128:int64）。留空：使用模型自带的示例输入。按 Enter 开始基准测试。</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/moves/bar_reasons.py" line="+60"/>
        <source>pinning only speeds host-to-GPU copies; no GPU is the target</source>
        <extracomment>Why a benchmark cannot run now (no input, a bad shape, a split model); None if it can. Why a pinned move makes no sense now (see ``pinned_blocker``); None if it does.</extracomment>
        <translation>锁页只能加快主机到 GPU 的复制；目标不是 GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pinning only speeds host-to-CUDA copies; the target is %1</source>
        <translation>锁页只能加快主机到 CUDA 的复制；目标是 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>pinning only speeds host-to-GPU copies; the model is already on %1</source>
        <translation>锁页只能加快主机到 GPU 的复制；模型已在 %1 上</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a model is loading</source>
        <translation>正在加载模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a move is running</source>
        <translation>正在移动模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a benchmark is running</source>
        <translation>正在进行基准测试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the report is being written</source>
        <translation>正在写入报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the report is being built</source>
        <translation>正在生成报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a training step is running</source>
        <translation>正在运行训练步</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not now: %1 (Cancel stops it)</source>
        <translation>现在不行：%1（“取消”可停止）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not now: %1</source>
        <translation>现在不行：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 cannot be cancelled</source>
        <translation>%1，无法取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this cannot be cancelled</source>
        <translation>此操作无法取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No model is loaded (File › Open model…)</source>
        <translation>尚未加载模型（文件 › 打开模型…）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Nothing to cancel: no move or benchmark is running</source>
        <translation>没有可取消的操作：没有正在进行的移动或基准测试</translation>
    </message>
    <message>
        <location line="-91"/>
        <source>model.to(device, dtype): works on every machine when device falls back to the CPU</source>
        <extracomment>Each control&apos;s tooltip while it is enabled (English, marked; ``enabled_tip`` translates).</extracomment>
        <translation>model.to(device, dtype)：当 device 回退到 CPU 时，在每台机器上都能运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>model.cuda(): needs a CUDA GPU; on a machine without one you will see why .to(device) is preferred</source>
        <translation>model.cuda()：需要 CUDA GPU；在没有 GPU 的机器上，你会看到为什么更推荐 .to(device)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>model.cpu(): bring every tensor back to the CPU</source>
        <translation>model.cpu()：把所有张量移回 CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time the model on its current device (warm-up first; every sample kept)</source>
        <translation>在模型当前所在的设备上计时（先预热；保留每个样本）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop the running move (it rolls back) or benchmark (between samples)</source>
        <translation>停止正在进行的移动（会回滚）或基准测试（在样本之间停止）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pin the host tensors (page-locked memory) and copy with non_blocking=True, for .to(device) and .cuda(): compare the GB/s with an unpinned move to see whether pinning pays here</source>
        <translation>锁定主机上的张量（页锁定内存），并以 non_blocking=True 复制，适用于 .to(device) 和 .cuda()：将其 GB/s 与未锁页的移动比较，看锁页在这里是否值得</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/moves/action_bar.py" line="+162"/>
        <source>Move the model</source>
        <extracomment>A text the bar shows: as it is, or a function that says it again in the language now installed (then a change of language renders it again). Emitted after a change of language has set the bar&apos;s texts again: whoever adds to its tooltips (the move buttons&apos; prices) says them again then. Each control&apos;s tooltip while it is enabled (``bar_reasons``).</extracomment>
        <translation>移动模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measure latency</source>
        <translation>测量延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input shape</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runs</source>
        <translation>次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pinned</source>
        <translation>锁页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per module</source>
        <translation>逐模块</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Benchmark</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The device .to(device) moves to (selecting a row in the device table sets it)</source>
        <translation>.to(device) 移动到的设备（在设备表中选中一行即可设置）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cast floating-point tensors while moving (only .to() can cast)</source>
        <translation>移动时转换浮点张量的数据类型（只有 .to() 能做类型转换）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>forward: inference only; train step: forward + backward + optimizer step on a copy</source>
        <translation>前向传播：仅推理；训练步：在副本上执行前向传播 + 反向传播 + 优化器更新</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Timed samples after the warm-up (at most %1; a run stops after %2 s, with a note in the history)</source>
        <translation>预热后计时的样本数（最多 %1；一次运行超过 %2 s 即停止，并在历史记录中注明）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Independent runs of the measurement, one after another, each with its own warm-up: the report keeps each run, and comparing reports sees how much runs differ (bench --repeat takes each in a fresh process)</source>
        <translation>测量的独立轮数，依次进行，每轮各自预热：报告保留每一轮，比较报告时能看出各轮之间相差多少（命令行的对应选项在新进程中进行每一轮）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>After the plain measurement, time every module (hooks on each call, a second run): fills the Time, % of forward, Output shape and FLOPs columns of the model tree</source>
        <translation>在普通测量之后，为每个模块计时（每次调用挂钩子，再运行一次）：填充模型树的“时间”“占前向传播 %”“输出形状”和 FLOPs 列</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>fresh processes</source>
        <translation>全新进程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take every run in a fresh process that loads the model again, moves it to this device and dtype and measures it, as bench does: a short call on the CPU is as fast as the thread that runs it, and the window&apos;s own threads stay out. Costs a process start and a load per run (about 3 s for the example) and the model&apos;s memory twice while a run loads it. Not for a remote session</source>
        <translation>每次运行都在一个全新进程中进行：重新加载模型，移到这个设备和数据类型上再测量，和命令行一样。CPU 上很短的调用有多快取决于运行它的线程，这样窗口自己的线程就不在测量之中。代价是每次运行都要启动一个进程并加载一次模型（示例约 3 秒），加载期间模型占用两份内存。远程会话不可用</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
</context>
<context>
    <name>CloseGuard</name>
    <message>
        <location filename="../../inspector/gui/shell/close_guard.py" line="+78"/>
        <source>Quit now?</source>
        <extracomment>A run with fewer seconds of samples than this closes without asking: a short one is soon measured again, and a question on every close would be a nuisance.</extracomment>
        <translation>现在退出？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A %1 is running. Quitting now stops it, and what it has done so far is lost.</source>
        <translation>%1正在运行。现在退出会停止它，已完成的部分也会丢失。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quit anyway</source>
        <translation>仍然退出</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Quit without exporting?</source>
        <translation>不导出就退出？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This session holds %n result(s) no report has saved (measurements, fit answers, moves). Quitting drops them.</source>
        <translation>本次会话有 %n 个结果还没有保存到报告里（测量、“放得下吗？”的回答、移动）。退出会丢弃它们。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>File › Export report… saves them as JSON, HTML, Markdown or CSV.</source>
        <translation>文件 › 导出报告… 可将它们保存为 JSON、HTML、Markdown 或 CSV。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quit without exporting</source>
        <translation>不导出，直接退出</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>A benchmark is measuring</source>
        <translation>基准测试正在测量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The benchmark has measured %1 of samples so far. Closing the window now throws them away.</source>
        <translation>基准测试到目前为止已测得 %1 的样本。现在关闭窗口会丢弃这些样本。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop and keep: the run ends now and what it measured becomes its result (the plot, the history, the report); the window stays open, and File › Export report… saves it.</source>
        <translation>停止并保留：本次运行立即结束，已测得的样本成为它的结果（图表、历史记录、报告）；窗口保持打开，可用 文件 › 导出报告… 保存。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop and keep what was measured</source>
        <translation>停止并保留已测得的结果</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep measuring</source>
        <translation>继续测量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close anyway</source>
        <translation>仍然关闭</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stopping the benchmark: what it measured is kept (File › Export report… saves it)</source>
        <translation>正在停止基准测试：已测得的结果会保留（文件 › 导出报告… 可保存）</translation>
    </message>
</context>
<context>
    <name>CodePanel</name>
    <message>
        <location filename="../../inspector/gui/common/code_panel.py" line="+23"/>
        <source>The PyTorch code for your last move or benchmark appears here.</source>
        <translation>你上一次移动或基准测试对应的 PyTorch 代码会显示在这里。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the code to the clipboard</source>
        <translation>把代码复制到剪贴板</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Equivalent PyTorch code</source>
        <translation>等效的 PyTorch 代码</translation>
    </message>
</context>
<context>
    <name>CommandAvailability</name>
    <message>
        <location filename="../../inspector/gui/state/readiness.py" line="+45"/>
        <source>No model is loaded (File › Open model…)</source>
        <translation>尚未加载模型（文件 › 打开模型…）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model is split across devices: move it as a whole first (.to(device) or .cpu())</source>
        <translation>模型分散在多个设备上：请先把它整体移动（.to(device) 或 .cpu()）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Input shape: %1</source>
        <translation>输入形状：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This model brings no example input: enter an input shape such as 1,3,224,224</source>
        <translation>此模型没有自带示例输入：请输入输入形状，例如 1,3,224,224</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/moves/availability.py" line="+73"/>
        <source>This model brings no example input: enter its input shape(s), e.g. 1,3,224,224</source>
        <extracomment>The model whose prices the action bar shows (a new one: its label sizes afresh).</extracomment>
        <translation>此模型没有自带示例输入：请输入它的输入形状，例如 1,3,224,224</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/report/actions.py" line="+19"/>
        <source>Write the timing report (moves, latency, memory) as HTML, JSON, CSV or Markdown</source>
        <translation>把计时报告（移动、延迟、内存）写成 HTML、JSON、CSV 或 Markdown</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Available once a model is loaded and nothing is running</source>
        <translation>加载模型且没有任务运行时可用</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/moves/availability.py" line="+46"/>
        <source>%1: works on every machine when the device falls back to the CPU.</source>
        <translation>%1：当 device 回退到 CPU 时，在每台机器上都能运行。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1.
%2</source>
        <translation>%1。
%2</translation>
    </message>
</context>
<context>
    <name>ComparisonView</name>
    <message>
        <location filename="../../inspector/gui/features/compare/words.py" line="+14"/>
        <source>This session</source>
        <translation>本次会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/compare/cells.py" line="+24"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>median (ms)</source>
        <translation>中位数 (ms)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>vs CPU</source>
        <translation>相对 CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>95 % CI</source>
        <translation>95% 置信区间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Noise</source>
        <translation>噪声</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Route</source>
        <translation>路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pinned</source>
        <translation>锁页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>moves</source>
        <translation>移动次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time (s)</source>
        <translation>时间 (s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Section</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>median</source>
        <extracomment>Columns whose cells say their own unit (``36.2 µs``, as the rest of the window does): their title names none. The key stays (the view and its callers pick columns by it).</extracomment>
        <translation>中位数</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/compare/words.py" line="+5"/>
        <source>report</source>
        <extracomment>The Environment table&apos;s words from core (``compare_environment``): its sections and the facts it names. Core hands them as plain strings, so the window translates the ones it knows; a ``messages.Text`` goes through ``core_text``, anything else (a device id) as it is.</extracomment>
        <translation>报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OS</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU cores</source>
        <translation>CPU 核心数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PyTorch threads</source>
        <translation>PyTorch 线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System memory</source>
        <translation>系统内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU huge pages</source>
        <translation>CPU 大页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Class</source>
        <translation>类</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dtypes</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/compare/cells.py" line="+67"/>
        <source>%1 noisy</source>
        <extracomment>The verdicts that say B is clearly slower or faster; every other one (no clear difference, within run-to-run noise, about the same, too few samples, not compared) leaves a ratio uncoloured.</extracomment>
        <translation>%1 有噪声</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>noisy</source>
        <translation>有噪声</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+22"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>%n samples</source>
        <translation>%n 个样本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>speed-up over this report&apos;s CPU</source>
        <translation>相对本报告中 CPU 的加速比</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (%2 failed)</source>
        <translation>%1（%2 次失败）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/compare/view.py" line="+191"/>
        <source>Open report…</source>
        <extracomment>A report could not be opened: Failure(kind, message, detail) for the error banner. (side, path) after a report from disk is shown. The tables show a comparison (or the empty view) just made: for tests and tools. Each side&apos;s name: a file&apos;s name, or THIS_SESSION / A_REPORT (said in the window&apos;s language). True in a window whose session is side A (possibly not built yet): a report opened with the button then always goes to side B, never into the session&apos;s place. What is shown: the outcome of the comparison the tables hold (None: empty). Per side, the serial of the latest Open report… asked for (an older one&apos;s outcome is dropped). What the summary line says instead of the reports (&quot;Opening…&quot;, a failure), as a function that says it again when the language changes; None: the reports.</extracomment>
        <translation>打开报告…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open a saved .json timing report to compare with this session</source>
        <translation>打开已保存的 .json 计时报告，与本次会话比较</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Moves</source>
        <translation>移动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>could not show %1: %2</source>
        <extracomment>by side, ``reports`` as the typed report they were read as (on the pool thread)</extracomment>
        <translation>无法显示 %1：%2</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>could not compare the reports: %1</source>
        <translation>无法比较报告：%1</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Open a timing report</source>
        <translation>打开计时报告</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Timing report</source>
        <translation>计时报告</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+75"/>
        <source>The comparison could not be shown: %1</source>
        <translation>无法显示比较结果：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No report yet: run a benchmark, or open a saved report.</source>
        <translation>还没有报告：请运行一次基准测试，或打开已保存的报告。</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/compare/rows.py" line="+71"/>
        <source>95 % bootstrap interval of B&apos;s median over A&apos;s</source>
        <translation>B 的中位数与 A 的中位数之比的 95% 自助法置信区间</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>differs between the two reports</source>
        <translation>两份报告在此不同</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/compare/table.py" line="+71"/>
        <source>Right-click a column title to show or hide columns</source>
        <translation>右键单击列标题可显示或隐藏列</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../inspector/gui/features/remote/connect_dialog.py" line="+160"/>
        <source>Connect to server</source>
        <extracomment>The remembered commands&apos; JSON (one per recent host, each a line of shell). The tooltip&apos;s examples of commands (code: the same in every language). Why the host is refused, in words (empty while it is one).</extracomment>
        <translation>连接服务器</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>gpu-server, user@host, or a name from ~/.ssh/config</source>
        <translation>gpu-server、user@host，或 ~/.ssh/config 中的主机名</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Started on this machine; its stdin/stdout carry the session. Examples:</source>
        <translation>在本机上启动；会话经由它的 stdin/stdout 传输。示例：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The agent runs through your own command (your SSH keys, config and jump hosts) and talks only through its pipes: nothing listens on the network. It needs torch-device-inspector installed on the server (no Qt there).</source>
        <translation>代理通过你自己的命令启动（使用你的 SSH 密钥、配置和跳板机），只通过它的管道通信：不会在网络上监听任何端口。服务器上需要安装 torch-device-inspector（那里不需要 Qt）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <location filename="../../inspector/gui/common/core_texts.py" line="+9"/>
        <source>{first}, {rest}</source>
        <translation>{first}、{rest}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first} and {rest}</source>
        <translation>{first}和{rest}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first}; {rest}</source>
        <translation>{first}；{rest}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{names} and {more} more</source>
        <translation>{names} 及另外 {more} 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label} {factor}× slower</source>
        <translation>{label} 慢 {factor}×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label} {factor}× faster</source>
        <translation>{label} 快 {factor}×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label} {factor}× slower? too few samples to tell</source>
        <translation>{label} 慢 {factor}×？样本太少，无法判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label} {factor}× faster? too few samples to tell</source>
        <translation>{label} 快 {factor}×？样本太少，无法判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no clear difference</source>
        <translation>无明显差异</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about the same (within {within})</source>
        <translation>基本相同（相差 {within} 以内）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about the same</source>
        <translation>基本相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{verdict} ({label} noisy: may not repeat)</source>
        <translation>{verdict}（{label} 波动大：结果可能无法复现）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no clear difference: within run-to-run noise ({floor})</source>
        <translation>无明显差异：在轮与轮之间的波动范围内（{floor}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no verdict: the machine stalled the sampling threads in {spoiled} of {rounds} rounds, so the medians are the machine&apos;s, not the code&apos;s; rerun on a quieter machine</source>
        <translation>不下结论：{rounds} 轮中有 {spoiled} 轮，机器让采样线程停顿，中位数反映的是机器而不是代码；请在更空闲的机器上重跑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no verdict: {label}&apos;s run is too noisy to tell (flagged noisy, under {least} runs); bench A --against B, or bench --repeat 5 on each side on a quieter machine, can tell</source>
        <translation>无结论：{label} 的运行噪声太大，无法判断（已标记为有噪声，运行次数少于 {least}）；bench A --against B，或在更安静的机器上每边 bench --repeat 5，才能判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no verdict: {label_a}&apos;s and {label_b}&apos;s runs are too noisy to tell (flagged noisy, under {least} runs); bench A --against B, or bench --repeat 5 on each side on a quieter machine, can tell</source>
        <translation>无结论：{label_a} 和 {label_b} 的运行噪声都太大，无法判断（已标记为有噪声，运行次数少于 {least}）；bench A --against B，或在更安静的机器上每边 bench --repeat 5，才能判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one run on each side: how far a rerun lands is unknown, so no difference under {floor} is claimed ({source})</source>
        <translation>两边各只有一轮：重跑一次会偏离多少未知，因此不认定小于 {floor} 的差异（{source}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label_a} holds {runs_a} runs and {label_b} {runs_b}: fewer than {least} cannot show how far a rerun lands, so no difference under {floor} is claimed ({source})</source>
        <translation>{label_a} 有 {runs_a} 轮，{label_b} 有 {runs_b} 轮：少于 {least} 轮看不出重跑一次会偏离多少，因此不认定小于 {floor} 的差异（{source}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the runs of {label_a} and {label_b} agree more closely than this machine&apos;s usually do: no difference under {floor} is claimed ({source})</source>
        <translation>{label_a} 与 {label_b} 各轮之间的一致程度高于本机通常的水平：不认定小于 {floor} 的差异（{source}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label_a} and {label_b} were timed turn about in {rounds} rounds, each in a fresh process: the interval is that of the rounds&apos; ratios, so it sees how far a rerun lands</source>
        <translation>{label_a} 与 {label_b} 轮流计时，共 {rounds} 轮，每轮一个新进程：区间来自各轮的比值，因此反映了重跑一次会落在多远</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine&apos;s run-to-run noise, {percent} a run, measured by bench --repeat in {runs} runs, last on {when}</source>
        <translation>本机轮与轮之间的波动，每轮 {percent}，由 bench --repeat 在 {runs} 轮中测得，最近一次于 {when}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>run-to-run noise of {percent} a run: a constant stated for separate benches minutes apart (measured on a quiet 2-core VM, docs/cli.md), the same whatever this machine ran before; bench A --against B (turn about, fresh processes) or bench --repeat 5 on each side can tell a smaller difference</source>
        <translation>运行间噪声为每次运行 {percent}：这是为相隔几分钟的两次独立 bench 规定的常数（在安静的双核虚拟机上测得，见 docs/cli.md），与这台机器之前运行过什么无关；bench A --against B（轮流运行，全新进程）或每边 bench --repeat 5 能分辨更小的差异</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the spread of {label}&apos;s two runs, {percent} a run</source>
        <translation>{label} 两轮之间的差异，每轮 {percent}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label_a} and {label_b} come from different interleaved comparisons (their pair_id differ): their runs are compared as runs apart, not round by round</source>
        <translation>{label_a} 和 {label_b} 来自不同的交替比较（pair_id 不同）：它们的运行按彼此独立的运行比较，而不是逐轮比较</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label_a} and {label_b} are one interleaved comparison but hold {runs_a} and {runs_b} runs: their runs are compared as runs apart, not round by round</source>
        <translation>{label_a} 和 {label_b} 属于同一次交替比较，但分别有 {runs_a} 次和 {runs_b} 次运行：它们的运行按彼此独立的运行比较，而不是逐轮比较</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine&apos;s noise record {path} is not a regular file and was not read</source>
        <translation>本机的噪声记录 {path} 不是普通文件，未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine&apos;s noise record {path} is a folder and was not read</source>
        <translation>本机的噪声记录 {path} 是一个文件夹，未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine&apos;s noise record {path} is larger than {limit} and was not read</source>
        <translation>本机的噪声记录 {path} 大于 {limit}，未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine&apos;s noise record {path} could not be read ({error})</source>
        <translation>无法读取本机的噪声记录 {path}（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine&apos;s noise record {path} is not a noise record (not the JSON this app writes) and was not read</source>
        <translation>本机的噪声记录 {path} 不是噪声记录（不是本应用写入的 JSON），未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{verdict} ({label_a} and {label_b} noisy: may not repeat)</source>
        <translation>{verdict}（{label_a} 和 {label_b} 波动大：结果可能无法复现）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>only in {label}</source>
        <translation>仅在 {label} 中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no verdict: no usable samples in {labels}</source>
        <translation>没有结论：{labels} 中没有可用的样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no verdict: a median of 0 ms in {labels} (calls shorter than the clock shows): no ratio to take</source>
        <translation>没有结论：{labels} 的中位数为 0 ms（调用短于时钟能显示的时长）：无法计算比值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no verdict: the two medians give no ratio</source>
        <translation>没有结论：两个中位数无法得出比值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the same measurement (identical samples)</source>
        <translation>同一次测量（样本完全相同）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label_a} and {label_b} hold the same measurements (identical samples): there is no difference to measure</source>
        <translation>{label_a} 与 {label_b} 是同一次测量（样本完全相同）：没有可比较的差异</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not compared: {label}&apos;s {device} run differs in {differences}</source>
        <translation>未比较：{label} 中 {device} 上的运行在{differences}上不同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dtype ({mine} vs {theirs})</source>
        <translation>数据类型（{mine} 与 {theirs}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mode ({mine} vs {theirs})</source>
        <translation>模式（{mine} 与 {theirs}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input shape ({mine} vs {theirs})</source>
        <translation>输入形状（{mine} 与 {theirs}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not compared</source>
        <translation>未比较</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{factor}× slower</source>
        <translation>慢 {factor}×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{factor}× faster</source>
        <translation>快 {factor}×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: {factor}× slower than {reference} (95 % CI {interval})</source>
        <translation>{run}：比 {reference} 慢 {factor}×（95% 置信区间 {interval}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: {factor}× faster than {reference} (95 % CI {interval})</source>
        <translation>{run}：比 {reference} 快 {factor}×（95% 置信区间 {interval}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: {factor}× slower than {reference}? too few samples to tell</source>
        <translation>{run}：比 {reference} 慢 {factor}×？样本太少，无法判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: {factor}× faster than {reference}? too few samples to tell</source>
        <translation>{run}：比 {reference} 快 {factor}×？样本太少，无法判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: no clear difference from {reference} (95 % CI {interval})</source>
        <translation>{run}：与 {reference} 无明显差异（95% 置信区间 {interval}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: no clear difference from {reference}: within run-to-run noise ({floor}; 95 % CI {interval}); a repeat of 3 or more shows this machine&apos;s own</source>
        <translation>{run}：与 {reference} 无明显差异：在运行间噪声之内（{floor}；95% 置信区间 {interval}）；重复 3 次或更多可测出本机自己的运行间噪声</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>too noisy to tell</source>
        <translation>噪声太大，无法判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: no verdict against {reference}: too noisy to tell ({labels} flagged noisy, under {least} runs); a repeat of 5 on a quieter machine, or bench A --against B, can tell</source>
        <translation>{run}：与 {reference} 相比无结论：噪声太大，无法判断（{labels} 已标记为有噪声，运行次数少于 {least}）；在更安静的机器上重复 5 次，或 bench A --against B，才能判断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: about the same (within {within}) from {reference} (95 % CI {interval})</source>
        <translation>{run}：与 {reference} 基本相同（相差 {within} 以内；95% 置信区间 {interval}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: not compared with {other} ({differences}): only runs alike in mode, dtype and input shape are compared</source>
        <translation>{run}：未与 {other} 比较（{differences}）：只比较模式、数据类型和输入形状都相同的运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mode: {mine} vs {theirs}</source>
        <translation>模式：{mine} 与 {theirs}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dtype: {mine} vs {theirs}</source>
        <translation>数据类型：{mine} 与 {theirs}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input: {mine} vs {theirs}</source>
        <translation>输入：{mine} 与 {theirs}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>device: {mine} vs {theirs}</source>
        <translation>设备：{mine} 与 {theirs}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{run}: not compared with {other} ({differences}): runs are compared in the same mode and input shape, on one device or in one dtype</source>
        <translation>{run}：未与 {other} 比较（{differences}）：只比较模式和输入形状相同、且在同一设备上或为同一数据类型的运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not alike</source>
        <translation>条件不同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {seconds} s left</source>
        <translation>约剩 {seconds} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {minutes} min {seconds} s left</source>
        <translation>约剩 {minutes} 分 {seconds} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {minutes} min left</source>
        <translation>约剩 {minutes} 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {hours} h {minutes} min left</source>
        <translation>约剩 {hours} 小时 {minutes} 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{size} (would be {dense})</source>
        <translation>{size}（实际将占 {dense}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{size} (quantized)</source>
        <translation>{size}（量化）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{size} ({layout}; dense {dense})</source>
        <translation>{size}（{layout}；稠密时 {dense}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (+ {size} on meta, not allocated)</source>
        <translation>（另有 {size} 在 meta 上，未分配）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} (1 tensor)</source>
        <translation>{device}（1 个张量）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} ({count} tensors)</source>
        <translation>{device}（{count} 个张量）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model is split across devices: {where}. A forward pass fails with &apos;Expected all tensors to be on the same device&apos; until it is moved as a whole.</source>
        <translation>模型分散在多个设备上：{where}。在整体移动之前，前向传播会失败并报错 &apos;Expected all tensors to be on the same device&apos;。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The optimizer&apos;s state stayed on {state} while the model is on {model}: {count} optimizer-state tensors ({names}). Module.to() does not move optimizer state; the next optimizer.step() fails or mixes devices. Load the optimizer&apos;s state_dict again (it follows each parameter&apos;s device and dtype), or create the optimizer after moving the model.</source>
        <translation>模型在 {model} 上，而优化器状态仍留在 {state} 上：{count} 个优化器状态张量（{names}）。Module.to() 不会移动优化器状态；下一次 optimizer.step() 会失败或混用设备。请重新加载优化器的 state_dict（它会跟随每个参数的设备和数据类型），或在移动模型之后再创建优化器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The optimizer&apos;s state stayed on {state} while the model is on {model}: 1 optimizer-state tensor ({names}). Module.to() does not move optimizer state; the next optimizer.step() fails or mixes devices. Load the optimizer&apos;s state_dict again (it follows each parameter&apos;s device and dtype), or create the optimizer after moving the model.</source>
        <translation>模型在 {model} 上，而优化器状态仍留在 {state} 上：1 个优化器状态张量（{names}）。Module.to() 不会移动优化器状态；下一次 optimizer.step() 会失败或混用设备。请重新加载优化器的 state_dict（它会跟随每个参数的设备和数据类型），或在移动模型之后再创建优化器。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} buffers ({names}) are not on {device} with the parameters.</source>
        <translation>{count} 个缓冲区（{names}）不在参数所在的 {device} 上。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 buffer ({names}) is not on {device} with the parameters.</source>
        <translation>1 个缓冲区（{names}）不在参数所在的 {device} 上。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>noisy: p95 is {factor} the median; results may not be repeatable</source>
        <translation>波动大：p95 是中位数的 {factor}；结果可能无法复现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>noisy: the middle half of the samples spans {share} of the median; results may not be repeatable</source>
        <translation>波动大：中间一半样本的跨度达中位数的 {share}；结果可能无法复现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>noisy: the median is only known to ±{share}; results may not be repeatable</source>
        <translation>波动大：中位数只能确定到 ±{share}；结果可能无法复现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{noise}: caused by the machine, not the model ({causes})</source>
        <translation>{noise}：原因在机器，而非模型（{causes}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{noise}: not the machine&apos;s doing (no other process, steal or preemption to speak of): the model or this process varies</source>
        <translation>{noise}：并非机器所致（没有值得一提的其他进程、窃取或抢占）：是模型或本进程自身在波动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{noise}: the machine was busy ({causes}), but too few samples were stalled by it to explain this: the model or this process varies</source>
        <translation>{noise}：机器较忙（{causes}），但被它拖慢的样本太少，不足以解释：是模型或本进程自身在波动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{noise}: the machine was busy ({causes}); how many samples it stalled is not measured here</source>
        <translation>{noise}：机器繁忙（{causes}）；它拖慢了多少个样本，此处无法测量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{noise} (whether the machine caused it is not measured here)</source>
        <translation>{noise}（是否由机器引起，此处无法测量）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{share} of the run&apos;s CPU went to other processes</source>
        <translation>本次运行期间 {share} 的 CPU 被其他进程占用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the hypervisor took {share} of the CPU (steal)</source>
        <translation>虚拟机管理程序占用了 {share} 的 CPU（steal）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sampling threads were preempted {count} times in {samples} samples</source>
        <translation>采样线程在 {samples} 个样本中被抢占 {count} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{causes}: p95 not reliable</source>
        <translation>{causes}：p95 不可靠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{causes}: neither the median nor p95 is reliable</source>
        <translation>{causes}：中位数和 p95 都不可靠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{causes}: the figures may read slower than on a quiet machine</source>
        <translation>{causes}：数值可能比空闲机器上的慢</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the machine was quiet during the run: no other process, steal or preemption to speak of</source>
        <translation>运行期间机器空闲：没有值得一提的其他进程、窃取或抢占</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the run was too short to measure the CPU other processes and the hypervisor took; the sampling threads were preempted {count} times</source>
        <translation>运行太短，无法测出其他进程和虚拟机管理程序占用的 CPU；采样线程被抢占 {count} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>what the machine did during the run is not measured here (it is read from Linux&apos;s /proc)</source>
        <translation>此处不测量运行期间机器的情况（它读自 Linux 的 /proc）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the run was too short to measure the CPU other processes and the hypervisor took</source>
        <translation>运行时间太短，无法测量其他进程和虚拟机管理程序占用的 CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{note} ({parts}: not measured here)</source>
        <translation>{note}（{parts}：此处无法测量）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the hypervisor&apos;s steal</source>
        <translation>虚拟机管理程序的窃取时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sampling threads&apos; preemptions</source>
        <translation>采样线程被抢占的次数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>warm-up stopped at its cap of {calls} calls with its last calls still more than {tolerance} apart (a model whose calls vary, or a machine that disturbs them): the first samples may still be slow</source>
        <translation>预热在上限 {calls} 次调用处停止，最后几次调用之间仍相差超过 {tolerance}（模型的调用本身在波动，或机器在干扰）：最初的样本可能仍然偏慢</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warm-up stopped at its cap of {seconds} s ({calls} calls) with its last calls still more than {tolerance} apart (a model whose calls vary, or a machine that disturbs them): the first samples may still be slow</source>
        <translation>预热在上限 {seconds} s（{calls} 次调用）处停止，最后几次调用之间仍相差超过 {tolerance}（模型的调用本身在波动，或机器在干扰）：最初的样本可能仍然偏慢</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not a device name (try cpu, cuda, cuda:0, mps or xpu)</source>
        <translation>{device} 不是设备名（可以试试 cpu、cuda、cuda:0、mps 或 xpu）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{text} is more than {limit}, larger than any device&apos;s memory</source>
        <translation>{text} 超过 {limit}，大于任何设备的内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not a device to fit a model on (try cpu, cuda, mps or xpu)</source>
        <translation>{device} 不是可以估算模型的设备（可以试试 cpu、cuda、mps 或 xpu）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no such index</source>
        <translation>没有这个编号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not present here ({reason}): the estimate uses the CPU&apos;s layout (no allocator rounding), and nothing is measured</source>
        <translation>{device} 不在本机（{reason}）：估算采用 CPU 的内存布局（不按分配器取整），也不做实测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no input: activations are not estimated (give an input shape)</source>
        <translation>没有输入：不估算激活值（请给出输入形状）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a forward pass holds no gradients or optimizer state: both are 0 in forward mode</source>
        <translation>前向传播不持有梯度和优化器状态：在前向传播模式下两者都为 0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>recurrent layers: the fused RNN kernels&apos; workspace (oneDNN on the CPU, cuDNN on CUDA) is not in the estimate, so a real step can peak higher (on the CPU an LSTM measured 1.5x in train-step; with torch.backends.mkldnn disabled they agree)</source>
        <translation>循环层：融合 RNN 内核的工作区（CPU 上的 oneDNN、CUDA 上的 cuDNN）不在估算之内，所以真实的一步峰值可能更高（在 CPU 上，一个 LSTM 在训练步模式下实测为 1.5x；禁用 torch.backends.mkldnn 后两者一致）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fit needs a Python model to copy onto fake tensors, and this is a TorchScript archive: load it from its factory instead</source>
        <translation>估算需要一个 Python 模型来复制到伪张量上，而这是一个 TorchScript 归档：请改为从它的工厂函数加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fit needs a Python model to copy onto fake tensors, and this is an exported program (.pt2): load it from its factory instead</source>
        <translation>估算需要一个 Python 模型来复制到伪张量上，而这是一个导出的程序（.pt2）：请改为从它的工厂函数加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no input</source>
        <translation>无输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not estimate the {mode} on {device} with input {shapes}: {error}</source>
        <translation>无法估算 {device} 上输入为 {shapes} 的 {mode}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model already lives on {device}: its own tensors are counted as used, so the free memory shown excludes them</source>
        <translation>模型已经在 {device} 上：它自己的张量计为已用，因此显示的可用内存不包括它们</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>free memory for this process is {free}, set by {limit}, not by the machine&apos;s available memory</source>
        <translation>本进程可用内存为 {free}，由{limit}决定，而非本机的可用内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not present on this machine</source>
        <translation>本机没有 {device}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not measured (the proof was not asked for)</source>
        <translation>未实测（没有要求实测验证）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not measured: the estimate says it does not fit</source>
        <translation>未实测：估算表明放不下</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not measured: a step needs an input (give an input shape)</source>
        <translation>未实测：一步需要输入（请给出输入形状）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>measuring a real step&apos;s peak is implemented for the CPU and CUDA, not {device_type}</source>
        <translation>实测一步的峰值只支持 CPU 和 CUDA，不支持 {device_type}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torch.cuda.max_memory_allocated over one real step</source>
        <translation>torch.cuda.max_memory_allocated，取自一次真实的一步</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>process peak RSS over one real step (after a first), baseline removed; a step under 1 MiB is within this reading&apos;s noise (it counts 4 KiB pages, and the process&apos;s own small allocations)</source>
        <translation>一次真实训练步（在先跑一次之后）期间进程的峰值 RSS，已减去基线；小于 1 MiB 的一步在此读数的噪声之内（它按 4 KiB 页计数，且包含进程自身的小分配）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{size} allocated inside {op} by oneDNN: its copies of the activations in its blocked layout (nChw16c), made and freed within the operator</source>
        <translation>{size} 由 oneDNN 在 {op} 内部分配：它按其分块布局（nChw16c）复制的激活值，在该算子内创建并释放</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the real step failed: {error}</source>
        <translation>真实的一步失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the real step ran out of memory: {error}</source>
        <translation>真实的一步内存不足：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown optimizer {name}: use one of {choices}</source>
        <translation>未知的优化器 {name}：请使用 {choices} 之一</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown mode {name}: use forward or train-step</source>
        <translation>未知的模式 {name}：请使用 forward 或 train-step</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown dtype {name}: use one of {choices}</source>
        <translation>未知的数据类型 {name}：请使用 {choices} 之一</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{shape} is not an input shape: every size must be a positive whole number</source>
        <translation>{shape} 不是输入形状：每个维度都必须是正整数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step needs an output that depends on trainable parameters, and this model&apos;s output does not (are all its parameters frozen?)</source>
        <translation>训练步需要一个依赖可训练参数的输出，而这个模型的输出不依赖（它的参数是否全部冻结了？）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this model has no parameters requiring grad, so an optimizer has nothing to hold</source>
        <translation>这个模型没有需要梯度的参数，优化器没有可管理的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled: the estimate stopped; nothing of the model was touched</source>
        <translation>已取消：估算已停止；模型未被改动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled: the proof step stopped; its copy of the model was dropped</source>
        <translation>已取消：实测的一步已停止；它所用的模型副本已丢弃</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warm-up needs at least one call: its cost is reported separately</source>
        <translation>预热至少需要调用一次：其耗时单独报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>give a number of runs or a minimum time, not both</source>
        <translation>请给出运行次数或最短时间，不要同时给出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the minimum time must be a positive number of seconds, not {value}</source>
        <translation>最短时间必须是正的秒数，而不是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the number of runs must be a whole number of at least 1, not {value}</source>
        <translation>运行次数必须是至少为 1 的整数，而不是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step needs trainable parameters, and this model has none requiring grad</source>
        <translation>训练步需要可训练的参数，而这个模型没有需要梯度的参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a training step needs trainable parameters, and this model has none requiring grad</source>
        <translation>训练步需要可训练的参数，而这个模型没有需要梯度的参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not create inputs {shapes} ({dtype}) on {device}: {error}</source>
        <translation>无法在 {device} 上创建输入 {shapes}（{dtype}）：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this model brings no example input: give an input shape (--input-shape 1,3,224,224 on the command line, or the input-shape field in the window)</source>
        <translation>这个模型没有自带示例输入：请给出输入形状（命令行用 --input-shape 1,3,224,224，或在窗口的输入形状栏中填写）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model&apos;s {what} failed on an input of shape {shapes}: {error}{hint}</source>
        <translation>模型的{what}在形状为 {shapes} 的输入上失败：{error}{hint}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model&apos;s {what} failed on an input of shapes {shapes}: {error}{hint}</source>
        <translation>模型的{what}在形状为 {shapes} 的输入上失败：{error}{hint}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (the model expects the last dimension to be {wanted}, not {got})</source>
        <translation>（模型期望最后一维为 {wanted}，而不是 {got}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (the model takes {count} more input(s), {names}: separate inputs with &apos;;&apos;, e.g. 10,32,512; 20,32,512)</source>
        <translation>（模型还需要 {count} 个输入，{names}：多个输入之间用 &apos;;&apos; 分隔，例如 10,32,512; 20,32,512）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (the forward takes {count} input(s))</source>
        <translation>（forward() 接受 {count} 个输入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forward pass</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(no tensor)</source>
        <translation>（无张量）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ran out of memory on {device} during the {what} with input shape {shapes}: try a smaller input shape or another device</source>
        <translation>{device} 在{what}中内存不足（输入形状 {shapes}）：请尝试更小的输入形状或换一个设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ran out of memory on {device} during the {what} with input shapes {shapes}: try a smaller input shape or another device</source>
        <translation>{device} 在{what}中内存不足（输入形状 {shapes}）：请尝试更小的输入形状或换一个设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the {what} failed on {device}: {error}</source>
        <translation>{what}在 {device} 上失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the per-module forward failed on {device} with input {shapes}: {error}</source>
        <translation>逐模块前向传播在 {device} 上失败，输入为 {shapes}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>benchmark cancelled during warm-up; the model is unchanged</source>
        <translation>基准测试在预热时被取消；模型未变</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>benchmark cancelled after {samples} samples; the model is unchanged</source>
        <translation>基准测试在 {samples} 个样本后被取消；模型未变</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per-module timing cancelled after {samples} samples; the model is unchanged</source>
        <translation>逐模块计时在 {samples} 个样本后被取消；模型未变</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step needs a second copy of the model and it does not fit in memory</source>
        <translation>训练步需要模型的第二份副本，而内存放不下</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step works on a copy of the model, and this model cannot be copied: {error}</source>
        <translation>训练步在模型的副本上运行，而这个模型无法复制：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>inputs of shapes {shapes}</source>
        <translation>输入形状为 {shapes}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model cast itself from {before} to {after} while it ran: reported as {after}; any samples taken before the cast ran in {before}</source>
        <translation>模型在运行中把自身从 {before} 类型转换为 {after}：按 {after} 报告；转换之前测得的样本（如有）是在 {before} 下运行的</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{runs} runs asked for: capped at {cap} samples per measurement</source>
        <translation>要求运行 {runs} 次：每次测量最多 {cap} 个样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>timed turn about with the other side of the comparison, in {slices} slices of each</source>
        <translation>与比较的另一方轮流计时，各 {slices} 段</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>one process&apos;s figure: a call of {median} on the CPU is as fast as the state of the process that runs it, and it moved within this run ({blocks} blocks in turn: medians from {low} to {high}), so a rerun may land elsewhere; bench --repeat 5 gives the median over 5 fresh processes</source>
        <translation>单个进程的数值：CPU 上一次 {median} 的调用有多快取决于运行它的进程的状态，而且它在本次运行中发生了变化（依次 {blocks} 段：中位数从 {low} 到 {high}），所以重新运行可能得到别的结果；bench --repeat 5 给出 5 个全新进程的中位数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one process&apos;s figure: a call of {median} on the CPU is as fast as the state of the thread that runs it (two threads of one process, taking turns on a quiet 2-core VM, ran 2x apart for seconds), so a rerun may land elsewhere; Repeat 5 with fresh processes gives the median over 5 processes, as bench --repeat 5 does</source>
        <translation>单个进程的数值：CPU 上一次 {median} 的调用有多快取决于运行它的线程的状态（在一台空闲的 2 核虚拟机上，同一进程中轮流运行的两个线程有几秒钟相差 2 倍），所以重新运行可能得到别的结果；重复 ×5 并勾选“全新进程”会给出 5 个进程的中位数，和命令行的多进程重复一样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one process&apos;s figure: a call of {median} on the CPU is as fast as the state of the thread that runs it, and it moved within this run ({blocks} blocks in turn: medians from {low} to {high}), so a rerun may land elsewhere; Repeat 5 with fresh processes gives the median over 5 processes, as bench --repeat 5 does</source>
        <translation>单个进程的数值：CPU 上一次 {median} 的调用有多快取决于运行它的线程的状态，而且在这次运行中就变了（依次 {blocks} 段：中位数从 {low} 到 {high}），所以重新运行可能得到别的结果；重复 ×5 并勾选“全新进程”会给出 5 个进程的中位数，和命令行的多进程重复一样</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>run {number} of {repeat} (a fresh process) failed: {why}; the other runs are kept</source>
        <translation>第 {number} 次运行（共 {repeat} 次，全新进程）失败：{why}；其他运行保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>run {number} of {repeat} (a fresh process) could not start: {why}</source>
        <translation>第 {number} 次运行（共 {repeat} 次，全新进程）无法启动：{why}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the model was handed to this session, not loaded by it, so no fresh process can load it: the runs were taken one after another in this process</source>
        <translation>模型是交给这个会话的，不是它加载的，所以全新进程无法加载它：各次运行在本进程中依次进行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{runs} independent runs, each with its own warm-up: the figures are of their samples together</source>
        <translation>{runs} 轮独立测量，每轮各自预热：各项数字来自所有轮的样本合在一起</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a minimum time of {seconds} s asked for: capped at {cap} s per measurement</source>
        <translation>要求最短时间 {seconds} 秒：每次测量最多 {cap} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped at the cap of {cap} samples after {seconds} s, before the minimum time of {min_time} s was reached</source>
        <translation>在 {seconds} 秒后达到 {cap} 个样本的上限而停止，尚未达到 {min_time} 秒的最短时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped early, as asked, after {runs} samples ({seconds} s of them): the figures are of those</source>
        <translation>按要求提前停止，共 {runs} 个样本（合计 {seconds} 秒）：各项数值来自这些样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped after {runs} of {of} runs: the cap of {cap} s per measurement was reached</source>
        <translation>运行 {runs}/{of} 次后停止：达到了每次测量 {cap} 秒的上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model.{method}() does not apply to an exported program: an exported program runs in the mode it was exported in</source>
        <translation>model.{method}() 不适用于导出的程序：导出的程序以导出时的模式运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model.{method}() is not supported by this model: it ran in the mode it is in</source>
        <translation>这个模型不支持 model.{method}()：它以当前所处的模式运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model has no optimizer: train-step used SGD(lr=0.01) on a copy of the model</source>
        <translation>模型没有优化器：训练步在模型副本上使用了 SGD(lr=0.01)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step ran {optimizer} on a copy of the model and its state</source>
        <translation>训练步在模型及其状态的副本上运行了 {optimizer}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model had no optimizer: it now has {optimizer}</source>
        <translation>模型原本没有优化器：现在有了 {optimizer}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a TorchScript module runs its submodules inside the script: only the whole model is timed</source>
        <translation>TorchScript 模块在脚本内部运行其子模块：只对整个模型计时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} modules never ran as modules in this forward (a fused fast path or a forward that calls their weights directly): they have no row</source>
        <translation>{count} 个模块在这次前向传播中没有作为模块运行（融合的快速路径，或 forward() 直接调用了它们的权重）：它们没有对应的行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the per-module run was disturbed (its forwards&apos; p95 is {factor} their median): the per-module times may be off; run it again</source>
        <translation>逐模块测量受到了干扰（其前向传播的 p95 是中位数的 {factor}）：逐模块时间可能有偏差，请重新运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the hooks add {per_call} per module call, more than the modules&apos; own time (the forward takes {ratio} as long with them): per-module times of this small model are mostly the hooks&apos; cost; {calibrated} a call, measured on empty modules, is taken out of them, so they are estimates</source>
        <translation>钩子使每次模块调用多花 {per_call}，超过模块本身的耗时（带钩子的前向传播耗时是不带时的 {ratio}）：这个小模型的逐模块时间主要是钩子的开销；已从中扣除在空模块上测得的每次调用 {calibrated}，因此它们只是估计值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the hooks add {per_call} per module call (the forward takes {ratio} as long with them): {calibrated} a call, measured on empty modules, is taken out of the per-module times, so they are estimates</source>
        <translation>钩子使每次模块调用多花 {per_call}（带钩子的前向传播耗时是不带时的 {ratio}）：已从逐模块时间中扣除在空模块上测得的每次调用 {calibrated}，因此它们只是估计值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the modules&apos; self times add up to {factor} the forward measured without hooks: the per-module figures include time the forward without hooks does not spend (the hooks&apos; cost beyond what was taken out, or waits during the run)</source>
        <translation>各模块自身耗时之和是不带钩子测得的前向传播的 {factor}：逐模块数据包含了不带钩子的前向传播并不花费的时间（超出已扣除部分的钩子开销，或运行期间的等待）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the modules&apos; self times add up to only {factor} the forward measured without hooks: part of the forward&apos;s time is in no module&apos;s median (interruptions that hit a different module each time, as when another process takes the CPU), so the shares of the forward add up to less than 100 %</source>
        <translation>各模块自身耗时之和只有不带钩子测得的前向传播的 {factor}：前向传播的一部分时间不在任何模块的中位数里（每次落在不同模块上的中断，例如其他进程占用了 CPU），因此各模块占前向传播的比例加起来不足 100 %</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty model spec: give &apos;example&apos;, a model file, or module:factory</source>
        <translation>模型描述为空：请给出 &apos;example&apos;、一个模型文件或 module:factory</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a Python file needs the name of its factory after a colon, e.g. {example}</source>
        <translation>Python 文件需要在冒号后写出工厂函数的名字，例如 {example}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no such file: {path} (to name a factory, write module:factory, e.g. torch.nn:Identity)</source>
        <translation>没有这个文件：{path}（要指定工厂函数，请写成 module:factory，例如 torch.nn:Identity）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{spec} is a file, not a factory: an architecture is given as package.module:factory or path/to/file.py:factory</source>
        <translation>{spec} 是一个文件，不是工厂函数：架构应写成 package.module:factory 或 path/to/file.py:factory</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} holds only weights (a state dict of {count} entries); say which model they belong to with an architecture spec such as mypackage.models:make_model or path/to/model.py:Net</source>
        <translation>{path} 只包含权重（一个有 {count} 项的 state_dict）；请用架构描述说明它们属于哪个模型，例如 mypackage.models:make_model 或 path/to/model.py:Net</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no module named {module} (from spec {spec}){hint}</source>
        <translation>没有名为 {module} 的模块（来自描述 {spec}）{hint}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; to use the file {path}, write {spec}</source>
        <translation>；要使用文件 {path}，请写 {spec}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>importing {module} (from spec {spec}) failed: {error}</source>
        <translation>导入 {module}（来自描述 {spec}）失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no such file: {path} (from spec {spec})</source>
        <translation>没有这个文件：{path}（来自描述 {spec}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot import {path} as Python (from spec {spec})</source>
        <translation>无法将 {path} 作为 Python 导入（来自描述 {spec}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running {path} (from spec {spec}) failed: {error}</source>
        <translation>运行 {path}（来自描述 {spec}）失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{owner} has no attribute {attribute} (from spec {spec})</source>
        <translation>{owner} 没有属性 {attribute}（来自描述 {spec}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{spec} names {value}, not a factory function or an nn.Module class</source>
        <translation>{spec} 指向的是{value}，不是工厂函数或 nn.Module 类</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>factory {spec} raised {error}{hint}</source>
        <translation>工厂函数 {spec} 抛出了 {error}{hint}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; a class that needs arguments must be built by a factory function</source>
        <translation>；需要参数的类必须通过工厂函数构建</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>factory {spec} returned {value}, not an nn.Module or a (module, example_input) pair</source>
        <translation>工厂函数 {spec} 返回了{value}，不是 nn.Module，也不是 (module, example_input) 二元组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>factory {spec} returned {value} as example input; expected a tensor or a tuple of tensors</source>
        <translation>工厂函数 {spec} 返回了{value}作为示例输入；应为一个张量或张量元组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a {type}</source>
        <translation>一个 {type}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an {type}</source>
        <translation>一个 {type}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a {type} of {count} items</source>
        <translation>一个含 {count} 项的 {type}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an {type} of {count} items</source>
        <translation>一个含 {count} 项的 {type}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no such file: {path}</source>
        <translation>没有这个文件：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a folder; give the model file inside it</source>
        <translation>{path} 是一个文件夹；请给出其中的模型文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a regular file (a device, pipe or socket); give a model file</source>
        <translation>{path} 不是普通文件（而是设备、管道或套接字）；请给出一个模型文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a regular file with content but a special file the kernel makes up as it is read (/proc, /sys); give a model file</source>
        <translation>{path} 不是有内容的普通文件，而是内核在读取时才生成内容的特殊文件（/proc、/sys）；请给出一个模型文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read {path}: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is an AOTInductor package of compiled code, which this app does not run; open the torch.export .pt2 file or the model&apos;s factory instead</source>
        <translation>{path} 是一个编译代码的 AOTInductor 包，本应用不运行它；请改为打开 torch.export 的 .pt2 文件或模型的工厂函数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a complete PyTorch checkpoint: {path} ({reason})</source>
        <translation>不是完整的 PyTorch 检查点：{path}（{reason}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its safetensors header is damaged</source>
        <translation>它的 safetensors 文件头已损坏</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its content is in no format PyTorch writes</source>
        <translation>它的内容不是 PyTorch 写出的任何格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is cut short: the index at the end of its archive is missing</source>
        <translation>它被截断了：归档末尾的索引缺失</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is a zip archive, but not one PyTorch wrote</source>
        <translation>它是一个 zip 归档，但不是 PyTorch 写出的</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the TorchScript archive could not be read: {error}</source>
        <translation>无法读取该 TorchScript 归档：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its pickle is damaged: {error}</source>
        <translation>它的 pickle 已损坏：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not load the exported program {path}: {error}</source>
        <translation>无法加载导出的程序 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reading .safetensors files needs the safetensors package: pip install safetensors</source>
        <translation>读取 .safetensors 文件需要 safetensors 包：pip install safetensors</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a complete safetensors file: {path} ({error})</source>
        <translation>不是完整的 safetensors 文件：{path}（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} holds {value}, not a model or a state dict</source>
        <translation>{path} 包含的是{value}，不是模型或 state_dict</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} needs Python code that cannot be imported here: {error}; install or put on PYTHONPATH the package that defines the model</source>
        <translation>{path} 需要的 Python 代码在这里无法导入：{error}；请安装定义该模型的包，或将其加入 PYTHONPATH</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not load {path}: {error}</source>
        <translation>无法加载 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused to load {path}: {reason} ({wanted}); none of it has run. If you trust this file, load it with --trust (CLI) or confirm in the GUI</source>
        <translation>已拒绝加载 {path}：{reason}（{wanted}）；其中任何代码都没有运行。如果你信任这个文件，请用 --trust（命令行）加载，或在图形界面中确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused to load {path}: it is written in a way that safe (weights-only) loading does not read, so loading it could run code. If you trust this file, load it with --trust (CLI) or confirm in the GUI</source>
        <translation>已拒绝加载 {path}：它的写法无法用安全（仅权重）方式读取，因此加载它可能会运行代码。如果你信任这个文件，请用 --trust（命令行）加载，或在图形界面中确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{names} and {more} more, all listed by --debug in the CLI and Show Details in the window</source>
        <translation>{names} 等另外 {more} 项，全部列表见命令行的 --debug 或窗口中的“显示详细信息”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loading it would run code it names</source>
        <translation>加载它会运行其中指定的代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is too large to check without loading it</source>
        <translation>它太大，不加载就无法检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it declares {declared} of tensor data, more than the {length} the file holds for it; nothing was allocated</source>
        <translation>它声明了 {declared} 的张量数据，超过文件中可容纳的 {length}；没有分配任何内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>storage {key} declares {declared} elements but its record in the file says {recorded}; nothing was allocated</source>
        <translation>存储 {key} 声明了 {declared} 个元素，但文件中的记录是 {recorded}；没有分配任何内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the check of the file was cancelled</source>
        <translation>文件检查已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is a plain pickle, not a file torch.save wrote</source>
        <translation>它是普通的 pickle，不是 torch.save 写出的文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loading it would run code or touch files</source>
        <translation>加载它会运行代码或访问文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the weights in {path} do not fit {architecture}: {error}</source>
        <translation>{path} 中的权重与 {architecture} 不匹配：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the weights in {path} do not fit {architecture} ({module}): {problems}</source>
        <translation>{path} 中的权重与 {architecture}（{module}）不匹配：{problems}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>missing keys: {keys}</source>
        <translation>缺少的键：{keys}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unexpected keys: {keys}</source>
        <translation>多余的键：{keys}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shape mismatches: {keys}</source>
        <translation>形状不匹配：{keys}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{key} {file} in file vs {model} in model</source>
        <translation>{key} 在文件中为 {file}，在模型中为 {model}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model taken from the checkpoint&apos;s {key} entry</source>
        <translation>模型取自检查点的 {key} 项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>also in the checkpoint, not used: {keys}</source>
        <translation>检查点中还有以下内容，未使用：{keys}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>weights from {path} loaded into {module} built by {architecture}</source>
        <translation>来自 {path} 的权重已加载到由 {architecture} 构建的 {module} 中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tied weights filled from their twins: {names}</source>
        <translation>共享权重已从其对应权重填充：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>key prefix {prefix} removed (saved from a wrapped model)</source>
        <translation>已去掉键前缀 {prefix}（保存自包装过的模型）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the input shape is empty: give sizes separated by commas, e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs</source>
        <translation>输入形状为空：请给出用逗号分隔的各维大小，例如 1,3,224,224；两个输入则写 10,32,512; 20,32,512</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{shape} is not an input shape: give whole numbers separated by commas, e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs</source>
        <translation>{shape} 不是输入形状：请给出用逗号分隔的整数，例如 1,3,224,224；两个输入则写 10,32,512; 20,32,512</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{shape} is not an input shape: it has more elements than any tensor can hold (2^63 - 1)</source>
        <translation>{shape} 不是输入形状：它的元素数超过了任何张量所能容纳的上限（2^63 - 1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{text} has an empty input between two &apos;;&apos;</source>
        <translation>{text} 的两个 &apos;;&apos; 之间有一个空输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input {number} ({part}) names no dtype after &apos;:&apos;: use one of {choices}</source>
        <translation>输入 {number}（{part}）在 &apos;:&apos; 后没有写数据类型：请使用 {choices} 之一</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{dtype} is not an input dtype: use one of {choices}</source>
        <translation>{dtype} 不是输入的数据类型：请使用 {choices} 之一</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no input given: e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs</source>
        <translation>没有给出输入：例如 1,3,224,224；两个输入则写 10,32,512; 20,32,512</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no model is loaded yet (open one with File › Open model…)</source>
        <translation>尚未加载模型（请通过 文件 › 打开模型… 打开一个）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder} is not a folder</source>
        <translation>{folder} 不是文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is a folder, give a file name in it</source>
        <translation>这是一个文件夹，请在其中给出文件名</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+18"/>
        <source>it is not a regular file</source>
        <translation>它不是普通文件</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>the file exists and is read-only</source>
        <translation>文件已存在且为只读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot save a report as {name}: the file name must end in {suffixes}</source>
        <translation>无法将报告保存为 {name}：文件名必须以 {suffixes} 结尾</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not write the report to {path}: {reason}</source>
        <translation>无法将报告写入 {path}：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the folder {folder} does not exist</source>
        <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a folder</source>
        <translation>{path} 是一个文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no permission to write in {folder}</source>
        <translation>没有在 {folder} 中写入的权限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder} is on a read-only file system</source>
        <translation>{folder} 位于只读文件系统上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file name is {length} bytes long, and at most {most} fit in this folder (the file is first written under a temporary name {extra} bytes longer)</source>
        <translation>文件名长 {length} 字节，而此文件夹最多容纳 {most} 字节（文件先以长 {extra} 字节的临时名称写入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file name ({length} bytes) is too long for this folder</source>
        <translation>文件名（{length} 字节）对此文件夹来说太长</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the path is {length} bytes long, more than this system takes</source>
        <translation>路径长 {length} 字节，超过了本系统的上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not write the metrics to {path}: {reason}</source>
        <translation>无法将指标写入 {path}：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a folder, not a report</source>
        <translation>{path} 是一个文件夹，不是报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no report at {path}: the file does not exist</source>
        <translation>{path} 处没有报告：文件不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not read {path}: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a timing report: {why}</source>
        <translation>{path} 不是计时报告：{why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a timing report: {why} (only .json reports can be opened again)</source>
        <translation>{path} 不是计时报告：{why}（只有 .json 报告可以再次打开）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it is {size}, more than the {limit} a report can be</source>
        <translation>它有 {size}，超过了报告的上限 {limit}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is more than the {limit} a report can be</source>
        <translation>它超过了报告的上限 {limit}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not a text file</source>
        <translation>它不是文本文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not JSON</source>
        <translation>它不是 JSON</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it holds a number too long to read</source>
        <translation>它包含一个过长而无法读取的数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is nested too deeply</source>
        <translation>它的嵌套层级太深</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it has no schema_version</source>
        <translation>它没有 schema_version</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its schema_version {version} is not a positive whole number</source>
        <translation>它的 schema_version {version} 不是正整数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} was written by a newer torch-device-inspector (report schema {version}; this version reads up to {supported}): update torch-device-inspector to open it</source>
        <translation>{path} 由更新版本的 torch-device-inspector 写出（报告 schema {version}；本版本最多读取 {supported}）：请更新 torch-device-inspector 后再打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it lacks {keys}</source>
        <translation>它缺少 {keys}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a valid timing report: {error}</source>
        <translation>{path} 不是有效的计时报告：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this PyTorch build has no CUDA support ({build})</source>
        <translation>此 PyTorch 构建不支持 CUDA（{build}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PyTorch has CUDA support but sees no CUDA device (check the NVIDIA driver and CUDA_VISIBLE_DEVICES)</source>
        <translation>PyTorch 支持 CUDA，但看不到任何 CUDA 设备（请检查 NVIDIA 驱动和 CUDA_VISIBLE_DEVICES）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this PyTorch build has no MPS (Apple GPU) support ({build})</source>
        <translation>此 PyTorch 构建不支持 MPS（Apple GPU）（{build}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MPS is built in but not available (needs macOS 12.3+ on Apple silicon)</source>
        <translation>MPS 已内置但不可用（需要 Apple 芯片上的 macOS 12.3+）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no Intel XPU is available to this PyTorch build ({build})</source>
        <translation>此 PyTorch 构建没有可用的 Intel XPU（{build}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown device type {type} (expected one of {choices})</source>
        <translation>未知的设备类型 {type}（应为 {choices} 之一）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not available: {reason}</source>
        <translation>{device} 不可用：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} does not exist: this machine has {count} {type} devices ({present})</source>
        <translation>{device} 不存在：本机有 {count} 个 {type} 设备（{present}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} does not exist: this machine has 1 {type} device ({present})</source>
        <translation>{device} 不存在：本机有 1 个 {type} 设备（{present}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not a device: PyTorch&apos;s {type} is one device, {type} (index 0 at most)</source>
        <translation>{device} 不是设备：PyTorch 的 {type} 只有一个设备，即 {type}（索引最多为 0）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is not a dtype a model can be cast to (use one of {choices}; bf16, fp16, fp32, fp64 also work)</source>
        <translation>{name} 不是模型可以转换成的数据类型（请使用 {choices} 之一；bf16、fp16、fp32、fp64 也可以）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{method} is not a move method (use one of {choices})</source>
        <translation>{method} 不是移动方法（请使用 {choices} 之一）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model.{method}() keeps dtypes; use the &apos;to&apos; method to cast to {dtype}</source>
        <translation>model.{method}() 不改变数据类型；要转换为 {dtype}，请使用 &apos;to&apos; 方法</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model.to() needs a target device, a dtype, or both</source>
        <translation>model.to() 需要目标设备、数据类型，或两者都给出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model.cpu() takes no device (got {device})</source>
        <translation>model.cpu() 不接受设备参数（收到了 {device}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model.cuda() takes a CUDA device such as &apos;cuda:1&apos; or &apos;1&apos;, not {device}</source>
        <translation>model.cuda() 接受的是 CUDA 设备，例如 &apos;cuda:1&apos; 或 &apos;1&apos;，而不是 {device}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{message}. PyTorch&apos;s own message, as a script meets it: “{said}”</source>
        <translation>{message}。PyTorch 的消息（在脚本里会看到的原文）：“{said}”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call} needs a CUDA GPU, but {reason}; prefer model.to(device) with device = torch.device(&quot;cuda:0&quot; if torch.cuda.is_available() else &quot;cpu&quot;): it runs everywhere</source>
        <translation>{call} 需要 CUDA GPU，但{reason}；建议使用 model.to(device)，其中 device = torch.device(&quot;cuda:0&quot; if torch.cuda.is_available() else &quot;cpu&quot;)：它在任何机器上都能运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call} failed: {error}; prefer model.to(device) with device = torch.device(&quot;cuda:0&quot; if torch.cuda.is_available() else &quot;cpu&quot;): it runs everywhere</source>
        <translation>{call} 失败：{error}；建议使用 model.to(device)，其中 device = torch.device(&quot;cuda:0&quot; if torch.cuda.is_available() else &quot;cpu&quot;)：它在任何机器上都能运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pinned ignored: pinned host memory only speeds host-to-CUDA copies, and a dtype cast stays on its device</source>
        <translation>已忽略 pinned：锁页主机内存只能加快主机到 CUDA 的复制，而数据类型转换留在原设备上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pinned ignored: pinned host memory only speeds host-to-CUDA copies, and the target is {device}</source>
        <translation>已忽略 pinned：锁页主机内存只能加快主机到 CUDA 的复制，而目标是 {device}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the move was cancelled; the model is as it was before</source>
        <translation>移动已取消；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call} refused: the model has quantized modules whose packed weights Module.to() does not move, so it would be split across devices; quantized modules run on the CPU</source>
        <translation>已拒绝 {call}：模型含有量化模块，其打包的权重不会被 Module.to() 移动，模型会因此分散在多个设备上；量化模块在 CPU 上运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>out of memory on {device}: {call} needed {needed} there but only {free} was free; the model is as it was before</source>
        <translation>{device} 上内存不足：{call} 在那里需要 {needed}，但只有 {free} 可用；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>out of memory on {device}: {call} needed {needed} there but an unknown amount was free; the model is as it was before</source>
        <translation>{device} 上内存不足：{call} 在那里需要 {needed}，但可用内存未知；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call} failed: {error}; the model is as it was before</source>
        <translation>{call} 失败：{error}；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it was cancelled</source>
        <translation>已被取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call} failed ({reason}) and the rollback could not restore the model ({error}): load it again before using it</source>
        <translation>{call} 失败（{reason}），且回滚无法恢复模型（{error}）：请重新加载后再使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model was restored, but freeing the target&apos;s memory afterwards failed ({problems}): the device may be unusable until the program restarts</source>
        <translation>模型已恢复，但之后释放目标设备的内存失败（{problems}）：在程序重启之前，该设备可能无法使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing was pinned: no tensor was on the host</source>
        <translation>没有锁页任何内存：没有张量在主机上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first use of {device} by this process: the time includes creating its CUDA context</source>
        <translation>本进程首次使用 {device}：耗时包括创建其 CUDA 上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(a name built at load)</source>
        <translation>（加载时才拼出的名称）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>__setstate__ in {record} (runs at load)</source>
        <translation>{record} 中的 __setstate__（加载时运行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what} in {record} (touches files or other processes)</source>
        <translation>{record} 中的 {what}（会访问文件或其他进程）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Python code in a shape expression of {record}: {code}</source>
        <translation>{record} 的形状表达式中含有 Python 代码：{code}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a call of {what} in {record}</source>
        <translation>{record} 中对 {what} 的调用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} (pickled in {record})</source>
        <translation>{name}（以 pickle 形式存于 {record}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compiled code in {folder}</source>
        <translation>{folder} 中的已编译代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a TorchScript object in constant {name} ({where})</source>
        <translation>常量 {name} 中的 TorchScript 对象（{where}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Python objects pickled in constant {name} ({where})</source>
        <translation>常量 {name} 中以 pickle 形式保存的 Python 对象（{where}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{record} declares {size} uncompressed, over the {bound} checked for its number of tensors ({count}); nothing was inflated</source>
        <translation>{record} 声明解压后为 {size}，超过按其张量数（{count}）检查的上限 {bound}；没有解压任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a pickle longer than the {opcodes} opcodes checked, {size} of it read</source>
        <translation>pickle 长度超过检查上限 {opcodes} 个操作码，已读取 {size}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — runs a shell command</source>
        <translation>{name} — 运行 shell 命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — starts a program</source>
        <translation>{name} — 启动程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — runs Python code</source>
        <translation>{name} — 运行 Python 代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — imports a module, running its code</source>
        <translation>{name} — 导入模块并运行其代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — calls native code</source>
        <translation>{name} — 调用本机代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — downloads code and runs it</source>
        <translation>{name} — 下载代码并运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — opens network connections</source>
        <translation>{name} — 打开网络连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — reads, writes or deletes files</source>
        <translation>{name} — 读取、写入或删除文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — reaches the operating system (files, processes)</source>
        <translation>{name} — 访问操作系统（文件、进程）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — changes the running Python interpreter</source>
        <translation>{name} — 修改正在运行的 Python 解释器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — a Python built-in that reaches any object</source>
        <translation>{name} — 可访问任意对象的 Python 内置函数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} — a function: it runs when the file loads</source>
        <translation>{name} — 函数：加载文件时会运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call}: nothing to copy (the model is already there, in that dtype)</source>
        <translation>{call}：无需复制（模型已在那里，且数据类型相同）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{peak} on {device} for a moment ({ratio}x the model&apos;s bytes there)</source>
        <translation>{device} 上短暂占用 {peak}（是模型在那里字节数的 {ratio} 倍）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{peak} on {device}</source>
        <translation>{device} 上 {peak}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{call} needs {parts}: the originals are kept until it succeeds</source>
        <translation>{call} 需要 {parts}：在成功之前会保留原始张量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{line}; {warnings}</source>
        <translation>{line}；{warnings}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is not a device (use a GPU index such as 0, or cpu, cuda:1, mps, xpu:0, meta)</source>
        <translation>{value} 不是设备（请使用 GPU 编号如 0，或 cpu、cuda:1、mps、xpu:0、meta）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is not a GPU index (indices start at 0)</source>
        <translation>{value} 不是 GPU 编号（编号从 0 开始）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>max_memory for {device} is {value}, not a size as accelerate reads it (bytes, or text such as 10GiB or 500MB; a lowercase b is bits: 160Mb is 20 MB)</source>
        <translation>{device} 的 max_memory 为 {value}，不是 accelerate 能读懂的大小（字节数，或 10GiB、500MB 这样的文本；小写 b 表示比特：160Mb 即 20 MB）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{path} is not a device map: it is not a regular file (a pipe, device or socket)</source>
        <translation>{path} 不是设备映射：它不是普通文件（而是管道、设备或套接字）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the main device is not fixed: accelerate&apos;s dispatch_model takes list(set(device_map.values()) - {{&apos;cpu&apos;, &apos;disk&apos;}})[0], and a set of device names given as strings ({devices}) iterates by the process&apos;s hash seed (PYTHONHASHSEED), so any of them may be the main device; this explanation assumes {main}. Name GPUs by integer ids (0, 1), as infer_auto_device_map writes them (a set of ids 0-7 iterates lowest first), or pass main_device= to dispatch_model</source>
        <translation>主设备并不固定：accelerate 的 dispatch_model 取 list(set(device_map.values()) - {{&apos;cpu&apos;, &apos;disk&apos;}})[0]，而以字符串给出的设备名集合（{devices}）的遍历顺序取决于进程的哈希种子（PYTHONHASHSEED），因此其中任何一个都可能成为主设备；本说明假定为 {main}。请像 infer_auto_device_map 那样用整数 ID（0、1）指定 GPU（ID 0-7 的集合从最小的开始遍历），或向 dispatch_model 传入 main_device=</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{names} run on {main}, not on {held}: at every forward accelerate&apos;s AlignDevicesHook copies each module&apos;s parameters from {held} to {main} just before it runs and frees them after ({size} per forward, once per call); their activations stay on {main}</source>
        <translation>{names} 在 {main} 上运行，而不是在 {held} 上：每次前向传播时，accelerate 的 AlignDevicesHook 在每个模块运行前把它的参数从 {held} 复制到 {main}，运行后释放（每次前向传播 {size}，每次调用复制一次）；它们的激活值留在 {main} 上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the buffers of the modules on {held} ({size}) stay on {main} the whole time: accelerate streams parameters only (offload_buffers=False)</source>
        <translation>{held} 上各模块的缓冲区（{size}）始终留在 {main} 上：accelerate 只流式传输参数（offload_buffers=False）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one forward streamed {size} of weights to {main} in {calls} module calls (measured with hooks)</source>
        <translation>一次前向传播在 {calls} 次模块调用中向 {main} 流式传输了 {size} 的权重（用钩子测得）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one forward streamed {size} of weights to {main} in 1 module call (measured with hooks)</source>
        <translation>一次前向传播在 1 次模块调用中向 {main} 流式传输了 {size} 的权重（用钩子测得）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{names} ({size}) are mapped to disk: explained, not applied (nothing is written; they stay where they are); dispatch_model writes these weights to its offload_dir and reads them back at every forward</source>
        <translation>{names}（{size}）映射到 disk：只解释，不应用（不写入任何内容；它们留在原处）；dispatch_model 会把这些权重写入它的 offload_dir，并在每次前向传播时读回</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max_memory gives disk {budget}: accelerate accepts the key but never limits disk by it</source>
        <translation>max_memory 为 disk 给出 {budget}：accelerate 接受这个键，但从不据此限制 disk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max_memory gives disk {budget}, but no module is on disk: accelerate accepts the key and never limits disk by it</source>
        <translation>max_memory 为 disk 给出 {budget}，但没有模块在 disk 上：accelerate 接受这个键，且从不据此限制 disk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}: max_memory {budget} = {placed} placed + {left} left</source>
        <translation>{device}：max_memory {budget} = 已放置 {placed} + 剩余 {left}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}: max_memory {budget} = {placed} placed + {reserve} kept free for the largest layer still to place ({layers}) + {left} left</source>
        <translation>{device}：max_memory {budget} = 已放置 {placed} + 为尚待放置的最大层（{layers}）预留 {reserve} + 剩余 {left}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}: max_memory {budget} is less than the {reserve} accelerate keeps free there for the largest layer still to place ({layers}), so it placed nothing there</source>
        <translation>{device}：max_memory {budget} 小于 accelerate 在此为尚待放置的最大层（{layers}）预留的 {reserve}，所以它在此没有放置任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the next layer, {name} ({size}), did not fit in the {left} left on {device}, so accelerate went on to {target}</source>
        <translation>下一层 {name}（{size}）放不进 {device} 上剩余的 {left}，所以 accelerate 转到了 {target}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{names} are on {spill} ({size}) and {device} has only {free} free: too little to hold them</source>
        <translation>{names} 在 {spill} 上（{size}），而 {device} 只有 {free} 可用：不足以容纳它们</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{names} is on {spill} ({size}) and {device} has only {free} free: too little to hold it</source>
        <translation>{names} 在 {spill} 上（{size}），而 {device} 只有 {free} 可用：不足以容纳它</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>name the host to connect to</source>
        <translation>请填写要连接的主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host {host} is longer than {limit} characters: a host is one name</source>
        <translation>主机 {host} 长于 {limit} 个字符：主机只能是一个名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host {host} starts with &apos;-&apos;, which ssh would read as an option: put options in the Command field, and the host alone here</source>
        <translation>主机 {host} 以 &apos;-&apos; 开头，ssh 会把它当作选项：请把选项写在“命令”栏中，这里只填主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host {host} holds {char}: a host is one name, without spaces or control characters (options go in the Command field)</source>
        <translation>主机 {host} 含有 {char}：主机只能是一个名称，不含空格或控制字符（选项请写在“命令”栏中）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host {host} holds {char}: a host is [user@]name, with letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos; (or an IPv6 address)</source>
        <translation>主机 {host} 含有 {char}：主机的形式为 [user@]name，只含字母、数字、&apos;.&apos;、&apos;-&apos; 和 &apos;_&apos;（或一个 IPv6 地址）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host {host} names a port: ssh takes it as -p in the Command field (ssh -p 2222 -- host …) or from ~/.ssh/config</source>
        <translation>主机 {host} 中写了端口：ssh 的端口请用“命令”栏中的 -p 指定（ssh -p 2222 -- host …），或写在 ~/.ssh/config 中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not connected to {host}: use Reconnect</source>
        <translation>未连接到 {host}：请使用“重新连接”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not connected to {host} ({reason}): use Reconnect</source>
        <translation>未连接到 {host}（{reason}）：请使用“重新连接”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no model is open on {host} yet (File › Open model…)</source>
        <translation>{host} 上还没有打开模型（文件 › 打开模型…）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the agent sent no per-module figures for this run</source>
        <translation>代理没有发来本次运行的逐模块数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“Will it fit?” is not available in a remote session yet: run `torch-device-inspector fit` on {host}</source>
        <translation>远程会话暂不支持“放得下吗？”：请在 {host} 上运行 `torch-device-inspector fit`</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A training step is not available in a remote session yet: the model on {host} is left as it is</source>
        <translation>远程会话暂不支持训练步：{host} 上的模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing was measured on {host} yet</source>
        <translation>{host} 上还没有测量任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{text} is not a memory size (try 24GiB, 80GB or a number of bytes)</source>
        <translation>{text} 不是内存大小（可写 24GiB、80GB 或字节数）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is not a GPU in the presets table (try one of: {choices}), or give --capacity</source>
        <translation>{name} 不在预设 GPU 表中（可选：{choices}），或给出 --capacity</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is a {kind} device, not {device}</source>
        <translation>{name} 是 {kind} 设备，不是 {device}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a named device needs its memory: a GPU from the presets, or a capacity</source>
        <translation>指定的设备需要知道其内存：从预设中选一个 GPU，或给出容量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{capacity} leaves nothing for the step once {taken} is set aside</source>
        <translation>{capacity} 在留出 {taken} 之后，已不剩任何内存给这一步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rule: the step&apos;s allocations replayed through CUDA&apos;s caching allocator ({source}): requests rounded up to 512 B; up to 1 MiB carved from 2 MiB segments, under 10 MiB from 20 MiB segments, larger ones in segments rounded up to 2 MiB; freed blocks kept for reuse (best fit, split, merged), and cached segments released before a request counts as out of memory</source>
        <translation>规则：这一步的各次分配按 CUDA 缓存分配器（{source}）的规则重放：请求向上取整到 512 B；不超过 1 MiB 的从 2 MiB 的段中切出，小于 10 MiB 的从 20 MiB 的段中切出，更大的请求使用向上取整到 2 MiB 的段；释放的块留作复用（最佳适配、拆分、合并），在判定内存不足之前先释放已缓存的段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rule: the step&apos;s live tensors on {device} counted byte for byte (no allocator rounding)</source>
        <translation>规则：逐字节统计这一步在 {device} 上存活的张量（不按分配器取整）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allowance, not a rule: {size} for the CUDA context and the kernels it loads, outside PyTorch&apos;s allocator (1-2 GB loaded at once per Hugging Face&apos;s model memory anatomy; PyTorch loads kernels lazily); a real GPU&apos;s figure depends on its driver and the kernels the step runs</source>
        <translation>预留量，而非规则：为 CUDA 上下文及其加载的内核预留 {size}，不在 PyTorch 的分配器之内（据 Hugging Face 的“模型训练内存剖析”，一次全部加载约 1-2 GB；PyTorch 按需延迟加载内核）；真实 GPU 上的数值取决于驱动和这一步运行的内核</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allowance, not a rule: {count} cuBLAS workspace(s) of {size} (PyTorch&apos;s default size on Hopper, the largest), one per thread that runs matrix products</source>
        <translation>预留量，而非规则：{count} 个 {size} 的 cuBLAS 工作区（PyTorch 在 Hopper 上的默认大小，也是最大的），每个执行矩阵乘法的线程一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allowance, not a rule: {count} cuBLAS workspace(s) of {size}, PyTorch&apos;s default on {gpu} ({architecture}, compute capability {capability}: {rule}), one per thread that runs matrix products</source>
        <translation>预留量，而非规则：{count} 个 {size} 的 cuBLAS 工作区，即 PyTorch 在 {gpu} 上的默认大小（{architecture}，计算能力 {capability}：{rule}），每个执行矩阵乘法的线程一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}, planned: not on this machine</source>
        <translation>{name}，规划：本机没有</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}, planned ({device} is here)</source>
        <translation>{name}，规划（本机有 {device}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{shapes} (largest batch {batch})</source>
        <translation>{shapes}（最大批大小 {batch}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>under {size}: below what RSS resolves</source>
        <translation>小于 {size}：低于 RSS 能分辨的大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allowance, not a rule: the GPU plans for {share} of the unified memory (the machine itself says how much in Metal&apos;s recommendedMaxWorkingSetSize); {size} is left to the system and other programs</source>
        <translation>预留量，而非规则：GPU 按统一内存的 {share} 规划（机器本身通过 Metal 的 recommendedMaxWorkingSetSize 给出确切数值）；{size} 留给系统和其他程序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kept free as asked: {size}</source>
        <translation>按要求保留空闲：{size}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>capacity: what torch.cuda.get_device_properties(i).total_memory reports for the {name}, less than the memory sold: {how} ({source})</source>
        <translation>容量：{name} 上 torch.cuda.get_device_properties(i).total_memory 报告的值，少于标称的显存：{how}（{source}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>capacity of the {name}, {how} ({source})</source>
        <translation>{name} 的容量，{how}（{source}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>capacity: {how} ({source})</source>
        <translation>容量：{how}（{source}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} is not present here ({reason}): the step is traced with the CPU&apos;s operators and planned for {label}; nothing is measured</source>
        <translation>{device} 不在本机（{reason}）：用 CPU 的算子追踪这一步，并按 {label} 规划；不做实测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>convolutions: cuDNN&apos;s workspace, chosen at run time within the memory left, is not counted</source>
        <translation>卷积：cuDNN 的工作区在运行时按剩余内存选择，未计入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the largest batch needs to know the memory of {device}: name a GPU or a capacity</source>
        <translation>求最大批大小需要知道 {device} 的内存：请指定 GPU 或容量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the largest batch needs an input whose first dimension is the batch (give an input shape)</source>
        <translation>求最大批大小需要第一维为批大小的输入（请给出输入形状）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mixed precision: the forward runs under autocast to {amp}; weights, gradients and optimizer state stay {dtype}</source>
        <translation>混合精度：前向传播在 autocast 下以 {amp} 运行；权重、梯度和优化器状态保持 {dtype}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>float16 training also needs a GradScaler (a few bytes; not counted)</source>
        <translation>float16 训练还需要 GradScaler（几个字节；未计入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no KV cache: the model is called with use_cache=False (--use-cache keeps one)</source>
        <translation>无 KV 缓存：调用模型时使用 use_cache=False（--use-cache 会保留缓存）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>with the KV cache: the model is called with use_cache=True, as asked</source>
        <translation>带 KV 缓存：按要求以 use_cache=True 调用模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loop: the output is freed before backward(), as transformers&apos; Trainer does (--keep-output plans out = model(x); out.loss.backward(); optimizer.step(), which holds it)</source>
        <translation>循环：输出在 backward() 之前释放，与 transformers 的 Trainer 相同（--keep-output 规划的是 out = model(x); out.loss.backward(); optimizer.step()，它会一直持有输出）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loop: out = model(x); out.loss.backward(); optimizer.step(): the output (the logits) is held through backward() and the optimizer&apos;s step, and into the next step&apos;s forward until out is assigned again</source>
        <translation>循环：out = model(x); out.loss.backward(); optimizer.step()：输出（logits）在 backward() 和优化器的一步中一直被持有，并延续到下一步的前向传播，直到 out 被重新赋值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--keep-output plans a training loop: a forward holds its output anyway (use --mode train-step)</source>
        <translation>--keep-output 规划的是训练循环：前向传播本来就持有其输出（请使用 --mode train-step）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} has no activation checkpointing switch (gradient_checkpointing_enable, as Hugging Face models have)</source>
        <translation>{name} 没有激活检查点开关（即 Hugging Face 模型的 gradient_checkpointing_enable）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a Hugging Face model folder: opening it needs transformers (pip install &apos;torch-device-inspector[hf]&apos;)</source>
        <translation>{path} 是 Hugging Face 模型文件夹：打开它需要 transformers（pip install &apos;torch-device-inspector[hf]&apos;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is not in the local Hugging Face cache ({cache}); nothing is downloaded: fetch it first (huggingface-cli download {name}) or give the folder</source>
        <translation>{name} 不在本地 Hugging Face 缓存（{cache}）中；不会下载任何内容：请先获取（huggingface-cli download {name}），或给出文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is not a Hugging Face model name (hf:ORG/NAME)</source>
        <translation>{name} 不是 Hugging Face 模型名称（hf:ORG/NAME）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json could not be read: {error}</source>
        <translation>{path}：无法读取 config.json：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} needs code from the model folder to build ({code}): nothing of it ran. Pass --trust to run it (only for folders you trust)</source>
        <translation>{path} 需要运行模型文件夹中的代码才能构建（{code}）：其中的代码均未运行。传入 --trust 才会运行（仅用于你信任的文件夹）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: transformers {version} does not know the model type {model_type}, and the folder names no code for it (auto_map)</source>
        <translation>{path}：transformers {version} 不认识模型类型 {model_type}，文件夹也没有为它指定代码（auto_map）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: transformers could not build the model: {error}</source>
        <translation>{path}：transformers 无法构建该模型：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>built from config.json alone on the meta device: no values, nothing allocated; fit and inspect work, a benchmark needs the weights</source>
        <translation>仅凭 config.json 在 meta 设备上构建：没有数值，不分配内存；fit 和 inspect 可用，基准测试需要权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>weights loaded from {files} ({count} tensors)</source>
        <translation>权重已从 {files} 加载（{count} 个张量）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>building {layers} layers on the meta device: about {seconds} s here (Cancel, or Ctrl+C, stops it)</source>
        <translation>正在 meta 设备上构建 {layers} 层：在本机约需 {seconds} 秒（“取消”或 Ctrl+C 可停止）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>while the folder loaded, transformers tried to run {what}: refused (a load starts no process and opens no connection)</source>
        <translation>加载该文件夹时，transformers 试图运行 {what}：已拒绝（加载不会启动任何进程，也不会打开任何连接）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the build from config.json was cancelled after {tensors} tensors: nothing was loaded</source>
        <translation>根据 config.json 的构建在 {tensors} 个张量后被取消：未加载任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the folder&apos;s weights are not in .safetensors ({files}): not loaded (only safetensors are read); built from config.json on the meta device</source>
        <translation>文件夹中的权重不是 .safetensors 格式（{files}）：未加载（只读取 safetensors）；已根据 config.json 在 meta 设备上构建</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>config.json names no model class (architectures): built {name}, the causal language model class of model_type {model_type} (name another in architectures to plan it instead)</source>
        <translation>config.json 没有指定模型类（architectures）：已构建 {name}，即 model_type {model_type} 的因果语言模型类（如需规划其他类，请在 architectures 中指定）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json names no model class (architectures), and model_type {model_type} has no causal language model class; name one in architectures: {choices}</source>
        <translation>{path}：config.json 没有指定模型类（architectures），而 model_type {model_type} 没有因果语言模型类；请在 architectures 中指定其一：{choices}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>example input: token ids of shape {shape} (int64, below the vocabulary size {vocab})</source>
        <translation>示例输入：形状为 {shape} 的词元 ID（int64，小于词表大小 {vocab}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} is not a regular file ({kind}): refused without being opened</source>
        <translation>{path}：{name} 不是普通文件（{kind}）：未打开即拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} leads to {target}, outside {root}: refused (a model&apos;s files stay inside its folder)</source>
        <translation>{path}：{name} 指向 {root} 之外的 {target}：已拒绝（模型的文件应位于其文件夹内）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {where} names {name}, which is not a plain file name of the folder</source>
        <translation>{path}：{where} 指定了 {name}，它不是该文件夹中的普通文件名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} is {size}, more than the {limit} a {what} may be (published ones are far smaller): not read</source>
        <translation>{path}：{name} 大小为 {size}，超过了 {what} 的上限 {limit}（已发布的文件远小于此）：未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} nests deeper than {limit} levels (real ones nest a few): not read</source>
        <translation>{path}：{name} 的嵌套深于 {limit} 层（真实文件只嵌套几层）：未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} could not be read: its brackets do not pair</source>
        <translation>{path}：无法读取 {name}：其中的括号不配对</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} has more than {limit} keys: not read</source>
        <translation>{path}：{name} 的键多于 {limit} 个：未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} gives the key {key} twice (readers differ on which value counts): refused</source>
        <translation>{path}：{name} 中键 {key} 出现了两次（不同的读取程序对哪个值有效看法不一）：已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} is {value}, not a JSON object</source>
        <translation>{path}：{name} 是 {value}，不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name}&apos;s weight_map is {value}, not an object of tensor name -&gt; file name</source>
        <translation>{path}：{name} 的 weight_map 是 {value}，不是“张量名 -&gt; 文件名”的对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an object whose values are not all file names</source>
        <translation>一个值并非全是文件名的对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: {name} names {count} weight files, more than {limit}: not read</source>
        <translation>{path}：{name} 列出了 {count} 个权重文件，多于 {limit} 个：未读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} is {value}: it must be a whole number, at least {least}</source>
        <translation>{path}：config.json 的 {field} 为 {value}：它必须是不小于 {least} 的整数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} is {value}, more than {limit} (the largest published models use {published}): refused</source>
        <translation>{path}：config.json 的 {field} 为 {value}，超过 {limit}（已发布的最大模型使用 {published}）：已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} add up to {layers} layers, more than {limit} (the largest published models use {published}): refused</source>
        <translation>{path}：config.json 的 {field} 合计 {layers} 层，超过 {limit}（已发布的最大模型使用 {published}）：已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json declares a model of more than {limit} modules or parameter tensors (the largest published model has {published}): refused</source>
        <translation>{path}：config.json 声明的模型超过 {limit} 个模块或参数张量（已发布的最大模型有 {published}）：已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json declares {layers} layers of {experts} experts ({blocks} expert blocks), more than {limit} (the largest published model has {published}): refused</source>
        <translation>{path}：config.json 声明了 {layers} 层、每层 {experts} 个专家（共 {blocks} 个专家块），超过 {limit}（已发布的最大模型有 {published}）：已拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} is {value}, not a floating-point dtype (float32, float16, bfloat16, ...)</source>
        <translation>{path}：config.json 的 {field} 为 {value}，不是浮点数据类型（float32、float16、bfloat16 等）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} is {value}, not {expected}</source>
        <translation>{path}：config.json 的 {field} 为 {value}，而不是{expected}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a list of class names</source>
        <translation>类名列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a name, or an object of names</source>
        <translation>一个名称，或由名称组成的对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s architectures names {name}, which is not a model class of transformers (a PreTrainedModel): nothing was called</source>
        <translation>{path}：config.json 的 architectures 指定了 {name}，它不是 transformers 的模型类（PreTrainedModel）：未调用任何代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} is {value}, which is not built into transformers {version} ({known}): loading it would import code from outside transformers (a kernel from the Hub&apos;s cache, a quantization library). Pass --trust to allow it (only for folders you trust)</source>
        <translation>{path}：config.json 的 {field} 为 {value}，它不是 transformers {version} 内置的（{known}）：加载它会导入 transformers 之外的代码（Hub 缓存中的内核、量化库）。如需允许，请加 --trust（仅用于你信任的文件夹）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path}: config.json&apos;s {field} is {value}, whose package is not installed here: transformers would load a kernel from the Hub&apos;s cache in its place. Pass --trust to allow it (only for folders you trust)</source>
        <translation>{path}：config.json 的 {field} 为 {value}，但本机未安装它的包：transformers 会改为从 Hub 缓存加载内核。如需允许，请加 --trust（仅用于你信任的文件夹）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}: the local cache&apos;s {ref} is not a commit id (40 hex digits): not followed ({reason})</source>
        <translation>{name}：本地缓存中的 {ref} 不是提交 ID（40 位十六进制数）：未采用（{reason}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}: the cached snapshot {path} lies outside {snapshots}: not opened</source>
        <translation>{name}：缓存的快照 {path} 位于 {snapshots} 之外：未打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} more lines from the libraries (not shown)</source>
        <translation>库还输出了 {count} 行（未显示）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>needs a CUDA GPU; prefer .to(device)</source>
        <translation>需要 CUDA GPU；更推荐 .to(device)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>non_blocking copies finish here</source>
        <translation>non_blocking 的复制在这里完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>use your own ids</source>
        <translation>换成你自己的 id</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>where the app measured</source>
        <translation>本应用测量时所用的设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the app trains a copy: your weights stay as they are</source>
        <translation>本应用训练的是副本：你的权重保持不变</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The app copies your optimizer when the model has one; SGD(lr=0.01) otherwise.</source>
        <translation>模型有优化器时，本应用复制它；否则使用 SGD(lr=0.01)。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each sample between two device events on the model&apos;s stream (the wait is outside it).</source>
        <translation>每个样本位于模型所在流上的两个设备事件之间（等待不计入其中）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The clock&apos;s own cost (the median gap of back-to-back reads)
is taken off each sample, as the app does.</source>
        <translation>与本应用一样，从每个样本中减去时钟自身的开销
（连续两次读取之间间隔的中位数）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>as the app does: a collection inside a sample is noise, not latency</source>
        <translation>与本应用一样：样本内发生的垃圾回收是噪声，不是延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warm-up; the first call&apos;s cost is reported apart</source>
        <translation>预热；首次调用的开销单独报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at least {seconds} s</source>
        <translation>至少 {seconds} s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The app reports the median of single calls; torch.utils.benchmark.Timer reports a median
of means of blocks of calls, which reads nearer the mean when some calls are slow.</source>
        <translation>本应用报告单次调用的中位数；torch.utils.benchmark.Timer 报告的是各组调用均值的中位数，
当部分调用较慢时，它更接近均值。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is not a strategy (choose one of: {choices})</source>
        <translation>{name} 不是一种策略（可选：{choices}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{flag} must be a positive whole number, not {text}</source>
        <translation>{flag} 必须是正整数，而不是 {text}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a distributed plan needs the number of ranks: --gpus N (or --min-gpus with --gpu)</source>
        <translation>分布式规划需要 rank 数：--gpus N（或与 --gpu 一起用 --min-gpus）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--shard-size is the shard group of fsdp-hybrid; ddp and fsdp have none</source>
        <translation>--shard-size 是 fsdp-hybrid 的分片组；ddp 和 fsdp 没有分片组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fsdp-hybrid needs a shard group of {size} rank(s) to divide the {world} rank(s): each replica is one whole shard group</source>
        <translation>fsdp-hybrid 需要 {size} 个 rank 的分片组能整除 {world} 个 rank：每个副本是一个完整的分片组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FSDP2&apos;s fully_shard refuses this model: {error}</source>
        <translation>FSDP2 的 fully_shard 拒绝了这个模型：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DDP needs a parameter that requires a gradient; this model has none</source>
        <translation>DDP 需要至少一个需要梯度的参数；这个模型没有</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DDP plans a training step: forward mode needs no DDP (plan it with fit alone)</source>
        <translation>DDP 规划的是训练步：前向模式不需要 DDP（只用 fit 规划即可）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this PyTorch build (torch {version}) has no torch.distributed: a distributed run cannot be planned with it</source>
        <translation>这个 PyTorch 构建（torch {version}）没有 torch.distributed：无法用它规划分布式运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a process group is already set up in this process; plan the cluster from a fresh process</source>
        <translation>这个进程里已经建立了进程组；请在全新的进程中规划集群</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the smallest GPU count needs the memory of each GPU: name a GPU or a capacity</source>
        <translation>求最少 GPU 数需要知道每块 GPU 的显存：请指定 GPU 或容量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--min-gpus and --max-batch each search: ask for one at a time</source>
        <translation>--min-gpus 和 --max-batch 都要搜索：一次只能问一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>--min-gpus with fsdp-hybrid needs --shard-size (the group the count grows by)</source>
        <translation>fsdp-hybrid 配合 --min-gpus 需要 --shard-size（数量按这个组增长）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DDP: each rank holds the whole model, its gradients and optimizer state, plus {buckets} of gradient buckets (bucket_cap_mb 25, the first 1 MiB; gradient_as_bucket_view off)</source>
        <translation>DDP：每个 rank 持有整个模型、它的梯度和优化器状态，另加 {buckets} 的梯度桶（bucket_cap_mb 25，第一个 1 MiB；gradient_as_bucket_view 关闭）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FSDP2 (fully_shard): {blocks} block(s) sharded, then the root; each rank holds 1/N of the parameters, gradients and optimizer state, and each block&apos;s all-gathered parameters while it runs</source>
        <translation>FSDP2（fully_shard）：{blocks} 个块分片，然后是根模块；每个 rank 持有参数、梯度和优化器状态的 1/N，以及每个块运行时全收集（all-gather）的参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HSDP (fully_shard on a 2-D mesh): {blocks} block(s) sharded within each shard group, replicated across the groups</source>
        <translation>HSDP（在二维网格上 fully_shard）：{blocks} 个块在每个分片组内分片，在组之间复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mixed precision by FSDP2&apos;s MixedPrecisionPolicy(param_dtype={amp}, reduce_dtype=float32): float32 shards, gradients and optimizer state; the all-gathered parameters in {amp}</source>
        <translation>由 FSDP2 的 MixedPrecisionPolicy(param_dtype={amp}, reduce_dtype=float32) 实现混合精度：分片、梯度和优化器状态为 float32；全收集的参数为 {amp}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NCCL&apos;s own buffers (outside PyTorch&apos;s allocator, set by NCCL_BUFFSIZE per channel and peer) are not counted</source>
        <translation>NCCL 自己的缓冲区（在 PyTorch 分配器之外，由每个通道和对端的 NCCL_BUFFSIZE 决定）未计入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one rank of a distributed run: proven on CPU ranks, not by a single step</source>
        <translation>分布式运行中的一个 rank：在 CPU rank 上验证，而不是用单步验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not measured (the ranks&apos; proof was not asked for)</source>
        <translation>未测量（没有要求在 rank 上验证）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not measured: the ranks prove a plan for the CPU on this machine; {device} is planned only (plan with --device cpu to prove the same layout here)</source>
        <translation>未测量：rank 只能在这台机器上验证 CPU 的规划；{device} 只做规划（用 --device cpu 规划，可以在这里验证同样的布局）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>planned without proof: {world} ranks are more than this machine proves ({most}: two per core, at least 4)</source>
        <translation>只规划、未验证：{world} 个 rank 超过了这台机器能验证的数量（{most}：每核两个，至少 4 个）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>planned without proof: {world} ranks need about {need} (each its step, its model and its interpreter) and {free} is free</source>
        <translation>只规划、未验证：{world} 个 rank 大约需要 {need}（每个 rank 的训练步、模型和解释器），而可用的只有 {free}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the ranks could not start: {error}</source>
        <translation>rank 无法启动：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rank {rank} failed: {error}</source>
        <translation>rank {rank} 失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{world} CPU ranks (gloo), each its own process&apos;s peak RSS over the second step less its RSS before it; pages the ranks share were resident before, and large blocks are unmapped at their free</source>
        <translation>{world} 个 CPU rank（gloo），每个取自己进程在第二步中的 RSS 峰值减去该步之前的 RSS；rank 之间共享的页面在此之前已驻留，大块内存在释放时即解除映射</translation>
    </message>
    <message>
        <location line="-215"/>
        <source>{value} is not a device name</source>
        <translation>{value} 不是设备名</translation>
    </message>
    <message>
        <location line="-292"/>
        <source>The optimizer&apos;s state stayed in {state} while the model is in {model}: {count} optimizer-state tensors ({names}). Module.to() does not move optimizer state; depending on the optimizer, the next optimizer.step() stops with a dtype error (Adam, AdamW) or runs with this state still in {state} (SGD), without a word. Load the optimizer&apos;s state_dict again (it follows each parameter&apos;s device and dtype), or create the optimizer after moving the model.</source>
        <translation>模型是 {model}，而优化器状态仍是 {state}：{count} 个优化器状态张量（{names}）。Module.to() 不会移动优化器状态；视优化器而定，下一次 optimizer.step() 要么因数据类型不符而报错（Adam、AdamW），要么照常运行、这些状态仍是 {state}（SGD），且没有任何提示。请重新加载优化器的 state_dict（它会跟随每个参数的设备和数据类型），或在移动模型之后再创建优化器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The optimizer&apos;s state stayed in {state} while the model is in {model}: 1 optimizer-state tensor ({names}). Module.to() does not move optimizer state; depending on the optimizer, the next optimizer.step() stops with a dtype error (Adam, AdamW) or runs with this state still in {state} (SGD), without a word. Load the optimizer&apos;s state_dict again (it follows each parameter&apos;s device and dtype), or create the optimizer after moving the model.</source>
        <translation>模型是 {model}，而优化器状态仍是 {state}：1 个优化器状态张量（{names}）。Module.to() 不会移动优化器状态；视优化器而定，下一次 optimizer.step() 要么因数据类型不符而报错（Adam、AdamW），要么照常运行、这些状态仍是 {state}（SGD），且没有任何提示。请重新加载优化器的 state_dict（它会跟随每个参数的设备和数据类型），或在移动模型之后再创建优化器。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>warm-up took {calls} calls, not {asked}: the first calls were slower than the rest, and took {absorbed} more than the run&apos;s median would (the first calls&apos; cost, kept out of the samples)</source>
        <translation>预热用了 {calls} 次调用，而不是 {asked} 次：最初的调用比其余的慢，比按本次运行的中位数多用了 {absorbed}（最初几次调用的开销，不计入样本）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the run&apos;s first {count} samples were slower than the rest, but the sampling threads were preempted {switches} times meanwhile: the machine&apos;s doing, so they stay in the samples</source>
        <translation>本次运行的前 {count} 个样本比其余的慢，但期间采样线程被抢占了 {switches} 次：这是机器所致，因此它们保留在样本中</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>process peak RSS over one real step (after a first), baseline removed: resident pages the whole process touched, not the estimate&apos;s count of tensors</source>
        <translation>一次真实训练步（在先跑一次之后）期间进程的峰值 RSS，已减去基线：整个进程触及的常驻页，而不是估算所计的张量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not measured: {reason}</source>
        <translation>未测量：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the process&apos;s peak memory cannot be reset and read on this system (it needs Linux&apos;s /proc/self/clear_refs)</source>
        <translation>在此系统上无法重置并读取进程的内存峰值（需要 Linux 的 /proc/self/clear_refs）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the process&apos;s peak memory cannot be reset here (/proc/self/clear_refs is not writable)</source>
        <translation>此处无法重置进程的内存峰值（/proc/self/clear_refs 不可写）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the process&apos;s peak is {gap} ({percent}) above the estimate; not counted by the estimate: {parts}</source>
        <translation>进程峰值比估算高 {gap}（{percent}）；估算未计入的：{parts}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the process&apos;s peak is {gap} ({percent}) below the estimate: the process&apos;s RSS counts pages touched, not bytes allocated (memory allocated and never written, or reused from what the process already held, is not in it)</source>
        <translation>进程峰值比估算低 {gap}（{percent}）：进程的 RSS 计的是触及的页，而不是分配的字节（分配后从未写入的内存，或复用进程已持有的内存，都不在其中）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{size} freed during the step and kept resident by the C allocator (malloc) instead of being returned to the system (handed back after every operator, the step peaks at {peak})</source>
        <translation>{size} 在这一步中被释放，但由 C 分配器（malloc）保留为常驻内存，没有归还给系统（若每个算子之后都归还，这一步的峰值为 {peak}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{size} allocated inside {op} for the kernel&apos;s own use (not among the operator&apos;s outputs, so not in the estimate)</source>
        <translation>{size} 在 {op} 内部分配，供内核自身使用（不属于算子的输出，因此不在估算之内）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{size} touched by Python code after {op}, outside any tensor (NumPy&apos;s or another library&apos;s buffers)</source>
        <translation>{size} 由 {op} 之后的 Python 代码触及，不属于任何张量（NumPy 或其他库的缓冲区）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{size} touched before the step&apos;s first operator, outside any tensor</source>
        <translation>{size} 在这一步的第一个算子之前被触及，不属于任何张量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no operator or stretch of Python code accounts for it (other threads of the process, or the allocator&apos;s rounding)</source>
        <translation>没有哪个算子或哪段 Python 代码能解释它（进程的其他线程，或分配器的取整）</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>one process&apos;s figure: a call of {median} on the CPU is as fast as the state of the process that runs it (fresh processes of the example in float16 landed 26-71 µs apart on PyTorch&apos;s 2 threads of a quiet 2-core VM, within 5 % in 17 of 20 on 1), so a rerun may land elsewhere; bench --threads 1 measures without the OpenMP team, bench --repeat 5 gives the median over 5 fresh processes</source>
        <translation>单个进程的数值：CPU 上一次 {median} 的调用有多快取决于运行它的进程的状态（在一台空闲的 2 核虚拟机上，float16 的示例在 PyTorch 默认的 2 个线程下，各个全新进程的结果相差 26-71 µs；1 个线程下 20 个进程中有 17 个彼此相差不到 5 %），所以重新运行可能得到别的结果；bench --threads 1 不用 OpenMP 线程组来测量，bench --repeat 5 给出 5 个全新进程的中位数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one process&apos;s figure: a call of {median} on the CPU is as fast as the state of the process that runs it (fresh processes of the example in float16 on 1 thread landed within 5 % of one another in 17 of 20 on a quiet 2-core VM, and 1.6-2.6x slower in 3), so a rerun may land elsewhere; bench --repeat 5 gives the median over 5 fresh processes</source>
        <translation>单个进程的数值：CPU 上一次 {median} 的调用有多快取决于运行它的进程的状态（在一台空闲的 2 核虚拟机上，float16 的示例在 1 个线程下，20 个全新进程中有 17 个彼此相差不到 5 %，另有 3 个慢了 1.6-2.6 倍），所以重新运行可能得到别的结果；bench --repeat 5 给出 5 个全新进程的中位数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>every run in a fresh process that loaded the model again, none in this one: {runs} runs</source>
        <translation>每次运行都在重新加载了模型的全新进程中，没有一次在本进程中：共 {runs} 次运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the first run could not be taken in a fresh process ({why}): the runs were taken one after another in this process</source>
        <translation>第一次运行无法在全新进程中进行（{why}）：各次运行在本进程中依次进行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the model is not on one device (split across several, or holding no tensors), which a fresh process cannot repeat: the runs were taken one after another in this process</source>
        <translation>模型不在同一个设备上（分布在多个设备上，或者没有任何张量），全新进程无法照样重现：各次运行在本进程中依次进行</translation>
    </message>
    <message>
        <location line="+183"/>
        <source>{value} is not a device name (try cpu, cuda:0, mps, xpu:0 or meta)</source>
        <translation>{value} 不是设备名（可以试试 cpu、cuda:0、mps、xpu:0 或 meta）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is a device type this app does not place on (use {choices})</source>
        <translation>{value} 是本应用不能放置张量的设备类型（请使用 {choices}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>max_memory must map devices to sizes</source>
        <translation>max_memory 必须是设备到大小的映射</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max_memory key {key}: {error}</source>
        <translation>max_memory 的键 {key}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no_split_module_classes is {value}: give a list of class names, e.g. [&quot;LlamaDecoderLayer&quot;]</source>
        <translation>no_split_module_classes 为 {value}：请给出类名列表，例如 [&quot;LlamaDecoderLayer&quot;]</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a device map is a JSON object of module name -&gt; device, e.g. {{&quot;encoder&quot;: 0, &quot;decoder&quot;: &quot;cpu&quot;}}</source>
        <translation>设备映射是一个从模块名到设备的 JSON 对象，例如 {{&quot;encoder&quot;: 0, &quot;decoder&quot;: &quot;cpu&quot;}}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the device map is empty: it names no module</source>
        <translation>设备映射为空：没有列出任何模块</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is not a module name</source>
        <translation>{name} 不是模块名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>device map entry {name}: {error}</source>
        <translation>设备映射项 {name}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no device map at {path}: the file does not exist</source>
        <translation>{path} 处没有设备映射：文件不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a folder, not a device map</source>
        <translation>{path} 是一个文件夹，不是设备映射</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>could not read the device map {path}: {error}</source>
        <translation>无法读取设备映射 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is larger than {limit}: not a device map</source>
        <translation>{path} 大于 {limit}：不是设备映射</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{path} is not a device map: it is not UTF-8 text</source>
        <translation>{path} 不是设备映射：它不是 UTF-8 文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a device map: it is not JSON</source>
        <translation>{path} 不是设备映射：它不是 JSON</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a device map: it is not JSON (line {line})</source>
        <translation>{path} 不是设备映射：它不是 JSON（第 {line} 行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the device map names {name}{more}, which is no module or tensor of the model{hint}</source>
        <translation>设备映射列出的 {name}{more} 不是模型中的模块或张量{hint}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> and {count} more</source>
        <translation> 及另外 {count} 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (its modules are named like {names})</source>
        <translation>（它的模块名类似 {names}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is tied to a weight the map put on {device}, but its own entry says {target}: it stays on {device}</source>
        <translation>{name} 与映射放在 {device} 上的权重共享，但它自己的映射项是 {target}：它留在 {device} 上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>out of memory while applying the device map ({error}); the model is as it was before</source>
        <translation>应用设备映射时内存不足（{error}）；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{message}; the model is as it was before</source>
        <translation>{message}；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>applying the device map failed: {error} (the model&apos;s tensors are on the meta device and hold no values: load its weights first, e.g. load_state_dict(..., assign=True)); the model is as it was before</source>
        <translation>应用设备映射失败：{error}（模型的张量在 meta 设备上，没有数值：请先加载其权重，例如 load_state_dict(..., assign=True)）；模型保持原样</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>applying the device map failed: {error}; the model is as it was before</source>
        <translation>应用设备映射失败：{error}；模型保持原样</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{names} are on {spill} ({size}), though {device} has {free} free: the map, not the memory, put them there (no max_memory in the file says why)</source>
        <translation>{names} 在 {spill} 上（{size}），尽管 {device} 还有 {free} 可用：是映射而不是内存把它们放在那里（文件中没有 max_memory 说明原因）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{names} is on {spill} ({size}), though {device} has {free} free: the map, not the memory, put them there (no max_memory in the file says why)</source>
        <translation>{names} 在 {spill} 上（{size}），尽管 {device} 还有 {free} 可用：是映射而不是内存把它放在那里（文件中没有 max_memory 说明原因）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{device} holds {placed}, more than its budget of {budget} in max_memory</source>
        <translation>{device} 上有 {placed}，超过了 max_memory 中 {budget} 的预算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} holds {placed}, more than its max_memory of {budget} less the {reserve} accelerate keeps free for the largest layer still to place ({layers}): accelerate would not make this map from these budgets</source>
        <translation>{device} 存放了 {placed}，超过其 max_memory {budget} 减去 accelerate 为尚待放置的最大层（{layers}）预留的 {reserve}：accelerate 不会根据这些预算生成这个映射</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} buffers are not in the map and stay where they were: {names}</source>
        <translation>{count} 个缓冲区不在映射中，留在原处：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 buffer is not in the map and stays where it was: {names}</source>
        <translation>1 个缓冲区不在映射中，留在原处：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} tensors are not in the map and stay where they were: {names}</source>
        <translation>{count} 个张量不在映射中，留在原处：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 tensor is not in the map and stays where it was: {names}</source>
        <translation>1 个张量不在映射中，留在原处：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the forward failed under this map: {error}</source>
        <translation>在此映射下前向传播失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the forward failed under this map: {error} (dispatch_model streams a module&apos;s weights only when that module is called: a module that reads a child&apos;s weights without calling it, as nn.MultiheadAttention reads out_proj.weight, needs preload_module_classes=[its class name])</source>
        <translation>在此映射下前向传播失败：{error}（dispatch_model 只在模块被调用时才流式传入它的权重：不调用子模块却直接读取其权重的模块，例如读取 out_proj.weight 的 nn.MultiheadAttention，需要 preload_module_classes=[它的类名]）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the input is on {source_device} but {target} is on {target_device}: {size} ({count} tensors) cross each forward</source>
        <translation>输入在 {source_device} 上，而 {target} 在 {target_device} 上：每次前向传播有 {size}（{count} 个张量）跨设备传输</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the input is on {source_device} but {target} is on {target_device}: {size} (1 tensor) cross each forward</source>
        <translation>输入在 {source_device} 上，而 {target} 在 {target_device} 上：每次前向传播有 {size}（1 个张量）跨设备传输</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{source} on {source_device} hands {size} ({count} tensors) to {target} on {target_device} each forward</source>
        <translation>每次前向传播，{source_device} 上的 {source} 把 {size}（{count} 个张量）传给 {target_device} 上的 {target}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{source} on {source_device} hands {size} (1 tensor) to {target} on {target_device} each forward</source>
        <translation>每次前向传播，{source_device} 上的 {source} 把 {size}（1 个张量）传给 {target_device} 上的 {target}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no accelerator is listed: {reason}</source>
        <translation>未列出加速器：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this PyTorch build targets {backend} devices, which this app does not inspect</source>
        <translation>此 PyTorch 构建面向 {backend} 设备，本应用不检查这类设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no {backend} device is visible</source>
        <translation>看不到任何 {backend} 设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device} could not be read: {error}</source>
        <translation>无法读取 {device}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU utilisation, temperature, power and other processes&apos; memory need the nvml extra ({hint})</source>
        <translation>GPU 利用率、温度、功耗以及其他进程的显存需要 nvml 扩展（{hint}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVML figures are missing: NVML could not start ({error})</source>
        <translation>缺少 NVML 数据：NVML 无法启动（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVML does not know the GPU(s) with UUID {uuids}; their NVML figures are missing</source>
        <translation>NVML 不认识 UUID 为 {uuids} 的 GPU；它们的 NVML 数据缺失</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the machine&apos;s available memory</source>
        <translation>本机的可用内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the container&apos;s memory limit (cgroup v{version}: {limit}, {used} in use)</source>
        <translation>容器的内存上限（cgroup v{version}：{limit}，已用 {used}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the address-space limit (RLIMIT_AS {limit}, {used} of address space in use)</source>
        <translation>地址空间上限（RLIMIT_AS {limit}，已用地址空间 {used}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>free for this process on {device}: {free}, set by {bound}</source>
        <translation>本进程在 {device} 上的可用内存：{free}，由{bound}决定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>huge pages: not available on this system</source>
        <translation>大页：本系统不支持</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>huge pages: off in the kernel (transparent_hugepage=never)</source>
        <translation>大页：已在内核中关闭 (transparent_hugepage=never)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>huge pages: off ({why}; the kernel gives them only when asked)</source>
        <translation>大页：关闭（{why}；内核只在被请求时才提供）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{variable} is not set</source>
        <translation>未设置 {variable}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{variable} is neither 0 nor 1</source>
        <translation>{variable} 既不是 0 也不是 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>huge pages: on for CPU tensors of 2 MiB or more (kernel mode {mode})</source>
        <translation>大页：对 2 MiB 及以上的 CPU 张量开启（内核模式 {mode}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU cores</source>
        <translation>CPU 核心数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PyTorch threads</source>
        <translation>PyTorch 线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PyTorch inter-op threads</source>
        <translation>PyTorch 算子间线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System memory</source>
        <translation>系统内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU huge pages</source>
        <translation>CPU 大页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Class</source>
        <translation>类</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dtypes</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the command {command}: {error}</source>
        <translation>无法解析命令 {command}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the command to start the agent is empty</source>
        <translation>启动代理的命令为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot start {program}: {error}</source>
        <translation>无法启动 {program}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no answer from the agent to {op} within {seconds} s</source>
        <translation>代理在 {seconds} 秒内没有回应 {op}</translation>
    </message>
</context>
<context>
    <name>DevicesCsv</name>
    <message>
        <location filename="../../inspector/gui/features/devices_csv/copy.py" line="+64"/>
        <source>The devices are not known yet: there is no table to copy</source>
        <extracomment>What a spreadsheet reads as the start of a formula.</extracomment>
        <translation>设备尚未读取：没有可复制的表格</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Devices table copied as CSV: %1 rows</source>
        <translation>已将设备表复制为 CSV：%1 行</translation>
    </message>
</context>
<context>
    <name>DevicesPanel</name>
    <message>
        <location filename="../../inspector/gui/features/devices/panel.py" line="+48"/>
        <source>cores</source>
        <extracomment>The device rows shown without scrolling (eight GPUs); more scroll. Item-data role carrying (used, total) bytes for the memory bar delegate. Item-data role carrying the device id of a row. The words for core&apos;s device details (``DeviceSnapshot.details`` keys) in the row&apos;s tooltip; a key not listed shows as it is, its underscores as spaces.</extracomment>
        <translation>核心数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>physical cores</source>
        <translation>物理核心数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torch threads</source>
        <translation>torch 线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>vector capability</source>
        <translation>向量指令集</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>multiprocessors</source>
        <translation>多处理器数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>memory source</source>
        <translation>内存数据来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>driver version</source>
        <translation>驱动版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>driver allocated bytes</source>
        <translation>驱动已分配字节数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unified memory</source>
        <translation>统一内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>recommended max bytes</source>
        <translation>建议最大字节数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max compute units</source>
        <translation>最大计算单元数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU EU count</source>
        <translation>GPU EU 数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>platform name</source>
        <translation>平台名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVML index</source>
        <translation>NVML 索引</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>device file minor number</source>
        <translation>设备文件次设备号</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory used / total</source>
        <translation>已用 / 总计内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This process</source>
        <translation>本进程</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>memory used: %1</source>
        <translation>已用内存：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this process (RSS): %1</source>
        <translation>本进程（RSS）：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>allocated by this process: %1</source>
        <translation>本进程已分配：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reserved by this process: %1</source>
        <translation>本进程已保留：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>free for this process: %1, set by %2</source>
        <translation>本进程可用内存：%1，由%2决定</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>Loading PyTorch…</source>
        <extracomment>The height its rows and notes need (``needed_height``), said when it changes: the layout gives the devices no more (a laptop&apos;s one CPU took a third of the column, issue 45). Torch is still being imported (the window&apos;s first second): no device is known yet.</extracomment>
        <translation>正在加载 PyTorch…</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <location filename="../../inspector/gui/common/dialogs.py" line="+287"/>
        <source>%1 and %2 more (Show Details lists them all)</source>
        <translation>%1 等另外 %2 项（“显示详细信息”中列出全部）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trust this file?</source>
        <translation>信任此文件？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 needs to run code to load.</source>
        <translation>%1 需要运行代码才能加载。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>It asks for: %1.</source>
        <translation>它要求使用：%1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Loading it runs that code with your permissions. Only trust files you made yourself or got from a source you trust.</source>
        <translation>加载它会以你的权限运行这些代码。只信任你自己制作的文件，或来自你信任的来源的文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Load this file anyway?</source>
        <translation>仍然加载此文件？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>It asks for:</source>
        <translation>它要求：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trust and load</source>
        <translation>信任并加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t load</source>
        <translation>不加载</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: where every tensor of a PyTorch model lives, what a move costs, and how fast the model runs on each device.</source>
        <translation>%1：PyTorch 模型的每个张量位于何处，一次移动的代价是多少，以及模型在每个设备上运行得有多快。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>About Torch Device Inspector</source>
        <translation>关于 Torch Device Inspector</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Run one training step?</source>
        <translation>运行一次训练步？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This runs one real forward, backward and optimizer step on your model: its weights change, and its gradients and optimizer state appear in the tree.

The loss is the sum of the outputs; the input is the model&apos;s own example input, or the input shape you entered.</source>
        <translation>这会在你的模型上真实执行一次前向传播、反向传播和优化器更新：权重会改变，梯度和优化器状态会出现在树中。

损失为输出之和；输入是模型自带的示例输入，或你填写的输入形状。</translation>
    </message>
</context>
<context>
    <name>Dispatcher</name>
    <message>
        <location filename="../../inspector/gui/state/dispatcher.py" line="+99"/>
        <source>Busy: wait for the %1 to finish, or cancel it</source>
        <translation>忙碌：请等待%1完成，或取消它</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <location filename="../../inspector/gui/common/error_banner.py" line="+35"/>
        <source>Device not available</source>
        <extracomment>Headings per failure kind; anything else is just &quot;Error&quot;.</extracomment>
        <translation>设备不可用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input problem</source>
        <translation>输入有误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not load the model</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not load the model: its architecture is needed</source>
        <translation>无法加载模型：需要提供它的结构</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File not loaded: it needs to run code</source>
        <translation>未加载文件：它需要运行代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connection to the server lost</source>
        <translation>与服务器的连接已断开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Details</source>
        <extracomment>The task whose failure is shown (&quot;move&quot;, &quot;benchmark&quot;, …): its next success clears it.</extracomment>
        <translation>详细信息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the technical details</source>
        <translation>显示或隐藏技术细节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide this message (it stays in the history)</source>
        <translation>隐藏此消息（它仍保留在历史记录中）</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>Exporter</name>
    <message>
        <location filename="../../inspector/gui/common/svg_export.py" line="+36"/>
        <source>SVG, drawn by Qt (use this if the other SVG entry fails)</source>
        <extracomment>pyqtgraph&apos;s Export dialog shows ``translate(&quot;Exporter&quot;, Name)``.</extracomment>
        <translation>SVG，由 Qt 绘制（另一个 SVG 选项失败时请用此项）</translation>
    </message>
</context>
<context>
    <name>FitDialog</name>
    <message>
        <location filename="../../inspector/gui/features/fit/dialog.py" line="+46"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Estimated peak</source>
        <translation>估计峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Free</source>
        <translation>可用</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+384"/>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <location line="-383"/>
        <source>Margin</source>
        <translation>余量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured peak</source>
        <translation>实测峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured / estimated</source>
        <translation>实测 / 估计</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+151"/>
        <source>Largest batch</source>
        <translation>最大批大小</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>no GPU named</source>
        <extracomment>The &quot;a GPU I name…&quot; choices besides the presets: none, or a capacity typed in.</extracomment>
        <translation>不指定 GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a capacity…</source>
        <translation>指定容量…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>model&apos;s dtype</source>
        <extracomment>The choices (shown text, data): the texts translated where shown, dtype names as they are.</extracomment>
        <translation>模型的数据类型</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/cells.py" line="+15"/>
        <source>train step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>forward</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no optimizer</source>
        <extracomment>How each optimizer the estimate knows reads in the list (its value stays the CLI&apos;s name).</extracomment>
        <translation>无优化器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/dialog.py" line="+130"/>
        <source>Will it fit?</source>
        <translation>放得下吗？</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the model&apos;s example input</source>
        <translation>模型的示例输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>e.g. 1,3,224,224; several inputs separated by &apos;;&apos;, each may name a dtype (8,128:int64)</source>
        <translation>例如 1,3,224,224；多个输入用 &apos;;&apos; 分隔，每个输入可指定数据类型（8,128:int64）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>prove it: run one real step where it fits</source>
        <translation>验证：在放得下的设备上真实运行一步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The largest batch (the input&apos;s first dimension) that fits on each device whose memory is known, found by steps traced on fake tensors</source>
        <translation>在每个已知内存的设备上放得下的最大批大小（输入的第一维），通过在伪张量上追踪的步骤求得</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Plan for a GPU you don&apos;t have: its memory from the presets, CUDA&apos;s allocator rules, and stated allowances for the CUDA context and cuBLAS</source>
        <translation>为你没有的 GPU 做规划：内存取自预设，应用 CUDA 分配器的规则，并为 CUDA 上下文和 cuBLAS 预留标明的余量</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>e.g. 24GiB or 80GB</source>
        <translation>例如 24GiB 或 80GB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the estimate or the proof now (the model is never touched)</source>
        <translation>立即停止估算或验证（模型不会被改动）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input shape</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A GPU I name</source>
        <translation>我指定的 GPU</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>%1, planned</source>
        <translation>%1，规划</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>%1: planned as %2</source>
        <translation>%1：按 %2 规划</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/cluster.py" line="+21"/>
        <source>DDP: a replica per rank</source>
        <extracomment>The strategies (shown text, the CLI&apos;s name).</extracomment>
        <translation>DDP：每个 rank 一个副本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FSDP2: sharded</source>
        <translation>FSDP2：分片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HSDP: sharded per node</source>
        <translation>HSDP：按节点分片</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>GPUs (ranks)</source>
        <extracomment>The most GPUs asked for here (``fit --min-gpus`` searches as far). What a window manager&apos;s title bar takes above a dialog (the screen&apos;s room is for its frame). A rank row&apos;s key starts so: never a device&apos;s id, so set_devices and a new question find them.</extracomment>
        <translation>GPU 数（rank）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1: one device. More: what each rank of a torch.distributed run holds, planned per device row; on the CPU, proven on that many CPU ranks (gloo) when the proof is asked</source>
        <translation>1：单个设备。更多：torch.distributed 运行中每个 rank 持有的内存，按每个设备行规划；在 CPU 上，要求验证时用同样数量的 CPU rank（gloo）验证</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/cells.py" line="+65"/>
        <source>%1, each of %2 ranks (%3)</source>
        <translation>%1，%2 个 rank 中的每一个（%3）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/cluster.py" line="+32"/>
        <source>  every rank of %1</source>
        <translation>  %1 的每个 rank</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>  rank %1</source>
        <translation>  rank %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 ranks (%2)</source>
        <translation>%1 个 rank（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../inspector/gui/features/fit/dialog.py" line="+5"/>
        <location line="+9"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/dialog.py" line="-6"/>
        <source>%1: largest batch %2, found in %3 traced steps</source>
        <translation>%1：最大批大小 %2，用了 %3 个追踪步骤求得</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: measured peak — %2</source>
        <translation>%1：实测峰值 — %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Estimating…</source>
        <translation>正在估算…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Searching for the largest batch: one traced step per batch tried…</source>
        <translation>正在求最大批大小：每试一个批大小追踪一步…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Choose the step, then Estimate: nothing is allocated for the estimate.</source>
        <translation>先选择步骤，再点“估算”：估算不会分配任何内存。</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/cells.py" line="-14"/>
        <source>No device could be estimated.</source>
        <translation>没有设备能完成估算。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no input</source>
        <translation>无输入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One %1 in %2 with optimizer %3, input %4: estimated without allocating (FakeTensorMode + MemTracker) in %5 s.</source>
        <translation>一次%1，数据类型 %2，优化器 %3，输入 %4：不分配内存完成估算（FakeTensorMode + MemTracker），用时 %5 s。</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>NO</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 (later steps %2)</source>
        <translation>%1（后续各步 %2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (batch %2 does not fit)</source>
        <translation>%1（批大小 %2 放不下）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/step_choices.py" line="+35"/>
        <source>keep the output</source>
        <translation>保留输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan the loop out = model(x); out.loss.backward(); optimizer.step(), which holds the output (logits) through backward (unchecked: freed before backward, as transformers&apos; Trainer does)</source>
        <translation>按 out=model(x); out.loss.backward(); optimizer.step() 这样的循环来规划，输出（logits）在整个反向传播期间一直保留（不勾选：在反向传播之前释放，和 transformers.Trainer 一样）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>keep the KV cache</source>
        <translation>保留 KV 缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Call a model that takes use_cache with use_cache=True: its key/value cache is kept (unchecked: use_cache=False, whatever its config says)</source>
        <translation>对接受 use_cache 的模型以 use_cache=True 调用：保留它的键/值缓存（不勾选：use_cache=False，不管它的配置怎么写）</translation>
    </message>
</context>
<context>
    <name>FitFlow</name>
    <message>
        <location filename="../../inspector/gui/features/fit/flow.py" line="+63"/>
        <source>will it fit? %1</source>
        <translation>放得下吗？%1</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>%1, planned</source>
        <translation>%1，规划</translation>
    </message>
</context>
<context>
    <name>HelpPages</name>
    <message>
        <location filename="../../inspector/gui/features/help/pages.py" line="+52"/>
        <location line="+168"/>
        <source>Getting started</source>
        <extracomment>A page is its blocks: a heading (``&quot;h3&quot;``, ``&quot;h4&quot;``) or paragraph (``&quot;p&quot;``) holding one text, or a list (``&quot;ol&quot;``, ``&quot;ul&quot;``) holding one text per item. Each text is marked for translation (context &quot;HelpPages&quot;, inline markup included) and translated when the page is shown, so the HTML around the texts is the same in every language.</extracomment>
        <translation>入门</translation>
    </message>
    <message>
        <location line="-167"/>
        <source>The window opens with the tutorial&apos;s example model (&lt;code&gt;Linear(3,2) → Linear(2,1)&lt;/code&gt;, with an SGD optimizer). Open your own with &lt;b&gt;File › Open model…&lt;/b&gt;: a factory (&lt;code&gt;path/to/file.py:make_model&lt;/code&gt;, &lt;code&gt;torch.nn:Transformer&lt;/code&gt;) or a saved file.</source>
        <translation>窗口打开时载入教程的示例模型（&lt;code&gt;Linear(3,2) → Linear(2,1)&lt;/code&gt;，带一个 SGD 优化器）。用 &lt;b&gt;文件 › 打开模型…&lt;/b&gt; 打开你自己的模型：一个工厂函数（&lt;code&gt;path/to/file.py:make_model&lt;/code&gt;、&lt;code&gt;torch.nn:Transformer&lt;/code&gt;）或一个已保存的文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>On a machine with a GPU</source>
        <translation>在有 GPU 的机器上</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Look at &lt;b&gt;Devices&lt;/b&gt;: each GPU and how full its memory is.</source>
        <translation>查看 &lt;b&gt;设备&lt;/b&gt;：每块 GPU 及其显存的占用情况。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick the GPU as the target and press &lt;b&gt;.to(device)&lt;/b&gt;: every parameter moves, the memory plot shows the bytes arrive, and the Code panel shows the line that does it.</source>
        <translation>选择 GPU 作为目标，按下 &lt;b&gt;.to(device)&lt;/b&gt;：每个参数都会移动，内存图显示字节的到达，“代码”面板显示完成这一步的那行代码。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Press &lt;b&gt;Benchmark&lt;/b&gt; on the GPU, then &lt;b&gt;.cpu()&lt;/b&gt; and benchmark again: the Latency tab compares the two runs.</source>
        <translation>在 GPU 上按下 &lt;b&gt;基准测试&lt;/b&gt;，再按 &lt;b&gt;.cpu()&lt;/b&gt; 并再次进行基准测试：“延迟”标签页会比较这两次运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;Tools › Run one training step&lt;/b&gt;, then move the model: the tree shows the optimizer&apos;s state left behind on the CPU, and the fix.</source>
        <translation>&lt;b&gt;工具 › 运行一次训练步&lt;/b&gt;，然后移动模型：树中会显示留在 CPU 上的优化器状态，以及修复方法。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>On a machine without a GPU</source>
        <translation>在没有 GPU 的机器上</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The tree lists every parameter and buffer on &lt;code&gt;cpu&lt;/code&gt;; pick &lt;b&gt;float64&lt;/b&gt; or &lt;b&gt;bfloat16&lt;/b&gt; and press &lt;b&gt;.to(device)&lt;/b&gt; to see sizes change.</source>
        <translation>树中列出 &lt;code&gt;cpu&lt;/code&gt; 上的每个参数和缓冲区；选择 &lt;b&gt;float64&lt;/b&gt; 或 &lt;b&gt;bfloat16&lt;/b&gt; 并按下 &lt;b&gt;.to(device)&lt;/b&gt;，看看大小如何变化。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Press &lt;b&gt;.cuda()&lt;/b&gt;: it fails, as it would in your script; &lt;code&gt;.to(device)&lt;/code&gt; with a fallback works everywhere. The error banner says why.</source>
        <translation>按下 &lt;b&gt;.cuda()&lt;/b&gt;：它会失败，就像在你的脚本中一样；带回退的 &lt;code&gt;.to(device)&lt;/code&gt; 则在任何地方都能运行。错误提示栏会说明原因。</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>No GPU here: see placement, cast dtypes, time on CPU, plan a GPU&apos;s memory (Help › Getting started)</source>
        <extracomment>Remembers that the CPU-only note was shown (once per user, not per launch). Short enough for the status bar of a 1024-pixel-wide window (translated where shown).</extracomment>
        <translation>本机没有 GPU：可查看位置、转换数据类型、在 CPU 上计时、规划某块 GPU 的显存（帮助 › 入门）</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>&lt;b&gt;Benchmark&lt;/b&gt; times the model on the CPU; &lt;b&gt;Tools › Will it fit?&lt;/b&gt; estimates the memory one training step needs on this machine&apos;s devices (here, the CPU, where one real step can prove it) or on &lt;b&gt;a GPU you name&lt;/b&gt; (a card from its list, or a capacity), with the CUDA allocator&apos;s rules and the largest batch that fits; nothing is allocated for a GPU you do not have, so that answer is an estimate.</source>
        <translation>&lt;b&gt;基准测试&lt;/b&gt;在 CPU 上为模型计时；&lt;b&gt;工具 › 放得下吗？&lt;/b&gt;估算一次训练步在本机设备上（这里是 CPU，可用一次真实的训练步验证）或在&lt;b&gt;你指定的 GPU&lt;/b&gt;上（从列表中选一块卡，或给出容量）所需的内存，应用 CUDA 分配器的规则，并给出能放下的最大批量；对你没有的 GPU 不会分配任何内存，所以那个答案是估算。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;b&gt;Tools › Run one training step&lt;/b&gt; adds gradients and optimizer state to the tree.</source>
        <translation>&lt;b&gt;工具 › 运行一次训练步&lt;/b&gt; 会把梯度和优化器状态加到树中。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;File › Export report…&lt;/b&gt; saves what you measured (see Help › The report format).</source>
        <translation>&lt;b&gt;文件 › 导出报告…&lt;/b&gt; 保存你测得的结果（见 帮助 › 报告格式）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+115"/>
        <source>The report format</source>
        <translation>报告格式</translation>
    </message>
    <message>
        <location line="-114"/>
        <source>&lt;b&gt;File › Export report…&lt;/b&gt; writes the session&apos;s timing report; the file&apos;s suffix picks the format: &lt;code&gt;.json&lt;/code&gt; (complete, versioned, opened again by &lt;b&gt;File › Open report…&lt;/b&gt;), &lt;code&gt;.html&lt;/code&gt; (with the plots), &lt;code&gt;.csv&lt;/code&gt; (one row per latency sample) or &lt;code&gt;.md&lt;/code&gt; (also &lt;b&gt;Edit › Copy report as Markdown&lt;/b&gt;).</source>
        <translation>&lt;b&gt;文件 › 导出报告…&lt;/b&gt; 写出本次会话的计时报告；文件后缀决定格式：&lt;code&gt;.json&lt;/code&gt;（完整、带版本号，可由 &lt;b&gt;文件 › 打开报告…&lt;/b&gt; 再次打开）、&lt;code&gt;.html&lt;/code&gt;（含图表）、&lt;code&gt;.csv&lt;/code&gt;（每个延迟样本一行）或 &lt;code&gt;.md&lt;/code&gt;（也可用 &lt;b&gt;编辑 › 复制报告为 Markdown&lt;/b&gt;）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The JSON holds:</source>
        <translation>JSON 包含：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;code&gt;schema_version&lt;/code&gt;, &lt;code&gt;created&lt;/code&gt;;</source>
        <translation>&lt;code&gt;schema_version&lt;/code&gt;、&lt;code&gt;created&lt;/code&gt;；</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;code&gt;environment&lt;/code&gt;: Python, torch, CUDA and driver where present, OS, devices;</source>
        <translation>&lt;code&gt;environment&lt;/code&gt;：Python、torch、CUDA 和驱动（如有）、操作系统、设备；</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;code&gt;model&lt;/code&gt;: spec, class, optimizer, tensor counts and bytes by device and dtype;</source>
        <translation>&lt;code&gt;model&lt;/code&gt;：模型描述、类、优化器，以及按设备和数据类型统计的张量个数和字节数；</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;code&gt;moves&lt;/code&gt;: each call, method, source, target, seconds, bytes, GB/s, ok, error;</source>
        <translation>&lt;code&gt;moves&lt;/code&gt;：每次调用的方法、源、目标、秒数、字节数、GB/s、ok、error；</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;code&gt;latency&lt;/code&gt;: each run&apos;s device, dtype, input shape, warm-up and every sample (ms), median, mean, p5, p95, min, max, and its spread;</source>
        <translation>&lt;code&gt;latency&lt;/code&gt;：每次运行的设备、数据类型、输入形状、预热和每个样本（ms），以及中位数、均值、p5、p95、最小值、最大值和离散程度；</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;code&gt;memory&lt;/code&gt;: the memory readings over time, per device;</source>
        <translation>&lt;code&gt;memory&lt;/code&gt;：每个设备随时间变化的内存读数；</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>where measured: &lt;code&gt;modules&lt;/code&gt; (per-module time, FLOPs, shapes), &lt;code&gt;fit&lt;/code&gt; (will it fit?), &lt;code&gt;ranks&lt;/code&gt; (one entry per torchrun rank).</source>
        <translation>测量过时还有：&lt;code&gt;modules&lt;/code&gt;（逐模块的时间、FLOPs、形状）、&lt;code&gt;fit&lt;/code&gt;（放得下吗？）、&lt;code&gt;ranks&lt;/code&gt;（每个 torchrun 进程一项）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;b&gt;File › Compare with…&lt;/b&gt; sets two reports side by side: latency ratios with confidence intervals, and &quot;no clear difference&quot; where the interval includes 1.</source>
        <translation>&lt;b&gt;文件 › 与…比较&lt;/b&gt; 把两份报告并排比较：给出带置信区间的延迟比值，区间包含 1 时显示“无明显差异”。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Cancel the running move (it rolls back) or benchmark</source>
        <translation>取消正在运行的移动（会回滚）或基准测试</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+47"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <location filename="../../inspector/gui/features/history/panel.py" line="+90"/>
        <source>Time</source>
        <extracomment>A row&apos;s text: the same in every language (``str``), or the function that says it in the language installed when it is called. Longer text for the tooltip (a failure&apos;s detail, a move&apos;s memory figures). What the row means (None: its texts are the same in every language).</extracomment>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Call</source>
        <translation>调用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Duration</source>
        <translation>用时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>InspectorWindow</name>
    <message>
        <location filename="../../inspector/gui/shell/deferred_start.py" line="+46"/>
        <source>Loading PyTorch…</source>
        <extracomment>A window not painted by then (not shown yet) starts importing torch anyway (ms). The import under way (``torch_loader.start``), once begun.</extracomment>
        <translation>正在加载 PyTorch…</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/window.py" line="+266"/>
        <source>The %1 translation could not be read: the window stays in English.</source>
        <extracomment>File › Connect to server…: the app answers it (``app.create_window`` wires it: the app makes a window of the remote kind, ``remote_window.RemoteKind``). Local or remote: the workers, the dialogs and the texts that differ (``window_kind``). The evented session state: the workers&apos; answers, which every feature subscribes to. The requests to the workers (``state.requests``), which every feature is handed. Parks this window&apos;s threads around timed samples (a local session&apos;s: ``LocalKind``). The parts and workers exist (``_start_session`` ran). Windows opened from this one, held while they are open (``keep_open``). The menus&apos; actions, by id: each feature binds what its actions call (``common.actions``). No saved splitter positions: the first show sizes them for the screen (``Frame.first_start``). The frame&apos;s wait for torch, while it is imported (None: it was imported already). The memory readings since the start (the sampler fills it; the plot and the report read it). What the features were installed with, and what they left in it (``state.feature``). The notice shown now, if any (for the tests).</extracomment>
        <translation>无法读取%1翻译：窗口保持英文。</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <location filename="../../inspector/gui/shell/language_menu.py" line="+50"/>
        <source>&amp;Language</source>
        <extracomment>A catalogue that could not be read: the window stays in English and says so.</extracomment>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>LatencyCanvas</name>
    <message>
        <location filename="../../inspector/gui/features/latency/labels.py" line="+18"/>
        <source>cancelled</source>
        <extracomment>Why a run stopped early (``LatencyPlot.abort_series``), as its label says it; another reason is shown as it is.</extracomment>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+11"/>
        <location filename="../../inspector/gui/features/latency/summary_bars.py" line="+95"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/latency/samples_view.py" line="+100"/>
        <source>sample (warm-up calls at negative indices)</source>
        <extracomment>Each dtype&apos;s marker in the samples view (another dtype: a circle). A run&apos;s name in the legend (``labels.run_label``): the key, why the run stopped early (&quot;&quot; if it did not), the words to say it in. A run streams in (``stream``): its ranges stay steady (``live_range``); the samples it was asked for.</extracomment>
        <translation>样本（预热调用位于负索引处）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+100"/>
        <location filename="../../inspector/gui/features/latency/summary_bars.py" line="-44"/>
        <location line="+28"/>
        <source>latency (%1)</source>
        <extracomment>A summary whisker reaching higher than this many times the largest median is clipped at that height (its p95 written beside it), so a noisy run&apos;s bars keep most of the plot. The unit the left axis reads in. What is drawn: the bars, the whiskers, each bar&apos;s label. Each bar&apos;s label and the height (in the axis&apos;s unit) it sits on; the bars&apos; top.</extracomment>
        <translation>延迟 (%1)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/latency/summary_bars.py" line="-27"/>
        <source>bar: median · whiskers: p5–p95</source>
        <translation>柱：中位数 · 须线：p5–p95</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bars: each run&apos;s median latency; whiskers: its 5th to 95th percentile</source>
        <translation>柱：每次运行的延迟中位数；须线：其第 5 至第 95 百分位</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/latency/samples_view.py" line="-97"/>
        <location line="+209"/>
        <source>running median</source>
        <translation>累计中位数</translation>
    </message>
    <message>
        <location line="-208"/>
        <location line="+209"/>
        <source>warm-up call (not timed)</source>
        <translation>预热调用（不计时）</translation>
    </message>
    <message>
        <location line="-205"/>
        <location line="+227"/>
        <source>Warm-up calls: not timed; the first one&apos;s cost is reported apart</source>
        <translation>预热调用：不计时；首次调用的开销单独报告</translation>
    </message>
    <message>
        <location line="-226"/>
        <location line="+227"/>
        <source>◀ warm-up</source>
        <translation>◀ 预热</translation>
    </message>
    <message>
        <location line="-90"/>
        <source>▲ %n outlier above (largest %1)</source>
        <translation>▲ 上方有 %n 个离群值（最大 %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>▲ %n outliers above (largest %1)</source>
        <translation>▲ 上方有 %n 个离群值（最大 %1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>▲ %n warm-up call above</source>
        <translation>▲ 上方有 %n 次预热调用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>▲ %n warm-up calls above</source>
        <translation>▲ 上方有 %n 次预热调用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>log scale shows all</source>
        <translation>对数刻度可显示全部</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/latency/summary_bars.py" line="+46"/>
        <source>p95 %1 ↑ (clipped)</source>
        <translation>p95 %1 ↑（已截断）</translation>
    </message>
</context>
<context>
    <name>LatencyPlot</name>
    <message>
        <location filename="../../inspector/gui/features/latency/plot.py" line="+113"/>
        <source>Samples</source>
        <extracomment>The Summary tab&apos;s line of top modules: a text, or a function that says it again in the language now installed (``set_top_modules``).</extracomment>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A logarithmic latency axis: every sample in view, outliers included</source>
        <translation>对数延迟轴：所有样本（包括离群值）都在视图中</translation>
    </message>
    <message>
        <location line="+254"/>
        <source>%1 · noisy</source>
        <translation>%1 · 有噪声</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/latency/readouts.py" line="+48"/>
        <source>sample %1 · %2: %3</source>
        <translation>样本 %1 · %2：%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warm-up call %1 of %2 · %3: %4</source>
        <translation>预热调用 %1/%2 · %3：%4</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: median %2, p5 %3, p95 %4</source>
        <translation>%1：中位数 %2，p5 %3，p95 %4</translation>
    </message>
</context>
<context>
    <name>Layout</name>
    <message>
        <location filename="../../inspector/gui/shell/layout.py" line="+62"/>
        <source>Devices</source>
        <extracomment>The lazy tab pages after History, in order.</extracomment>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/common/pages.py" line="+16"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
</context>
<context>
    <name>Lessons</name>
    <message>
        <location filename="../../inspector/gui/features/lessons/panel.py" line="+42"/>
        <source>1. Pick the device: cuda:0 or cpu</source>
        <extracomment>(title, what it teaches, where the answer shows) per lesson, marked for translation. The last is the line under the answer box: it points up at the answer, and names the main window for its panels (the lessons dialog may cover it, as it does on a 1024x700 screen).</extracomment>
        <translation>1. 选择设备：cuda:0 还是 cpu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The tutorial picks the device once and uses it everywhere: the first GPU when PyTorch can use CUDA, else the CPU. Run it to see what this machine answers, and why.</source>
        <translation>教程只选择一次设备，然后处处使用它：PyTorch 能使用 CUDA 时选第一块 GPU，否则选 CPU。运行它，看看本机的答案以及原因。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>2. x.to(device) versus net.to(device)</source>
        <translation>2. x.to(device) 与 net.to(device) 的区别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A tensor&apos;s .to(device) returns a new tensor and leaves x where it was, so you write x = x.to(device). A module&apos;s .to(device) moves the module itself: the same parameter objects, holding new data.</source>
        <translation>张量的 .to(device) 返回一个新张量，x 本身留在原处，所以要写 x = x.to(device)。模块的 .to(device) 移动的是模块本身：参数对象还是原来那些，只是装上了新的数据。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>3. .cuda() versus .to(device)</source>
        <translation>3. .cuda() 与 .to(device) 的区别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>.cuda() moves to a GPU and fails where there is none; .to(device) goes wherever device points, so the same code runs on every machine.</source>
        <translation>.cuda() 把模型移动到 GPU，没有 GPU 就会失败；.to(device) 则移动到 device 指向的地方，所以同一份代码在每台机器上都能运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>4. Make the optimizer after the move</source>
        <translation>4. 在移动之后再创建优化器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Module.to moves the parameters, not the optimizer&apos;s state. An optimizer that stepped before the move keeps its state where it was; one made after the move makes its state next to the parameters.</source>
        <translation>Module.to 移动的是参数，而不是优化器状态。在移动之前就执行过更新的优化器，其状态留在原处；在移动之后创建的优化器，会在参数所在的设备上创建状态。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>5. &quot;Expected all tensors to be on the same device&quot;</source>
        <translation>5. “Expected all tensors to be on the same device”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A forward pass needs its input where the model&apos;s parameters are. Leave the input on another device and PyTorch stops with an error; move it with x.to(device) and it runs.</source>
        <translation>前向传播要求输入和模型参数在同一个设备上。输入留在别的设备上，PyTorch 就会报错停止；用 x.to(device) 把输入移过去，就能运行。</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>The answer is above; in the main window, the Devices panel lists what PyTorch found.</source>
        <translation>答案在上方；在主窗口中，“设备”面板列出了 PyTorch 找到的设备。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The answer is above; in the main window, the History tab shows the move the lesson made, and the tree where each parameter is now.</source>
        <translation>答案在上方；在主窗口中，“历史记录”标签页显示本课做的移动，树显示每个参数现在的位置。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The answer is above; in the main window, the History tab shows each call the lesson made, and how it ended.</source>
        <translation>答案在上方；在主窗口中，“历史记录”标签页显示本课做的每一次调用，以及各自的结果。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The placement check quoted above is the warning the main window shows above the tree for such a model.</source>
        <translation>上方引用的位置检查，就是主窗口对这种模型在树上方显示的警告。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>PyTorch&apos;s message is quoted above, word for word.</source>
        <translation>上方逐字引用了 PyTorch 的原始消息。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Lessons</source>
        <extracomment>Room for a lesson&apos;s text, its code on one line each and its answer without scrolling. A lesson asked for while the example was being loaded for it.</extracomment>
        <translation>课程</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Load the example?</source>
        <translation>加载示例模型？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The lessons use the tutorial&apos;s example model (Net: Linear(3, 2) → Linear(2, 1)). Load it in place of the model open now? Your model file is not changed.</source>
        <translation>这些课使用教程中的示例模型（Net：Linear(3, 2) → Linear(2, 1)）。要用它替换当前打开的模型吗？你的模型文件不会被改动。</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/lessons/answers.py" line="+14"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Its next optimizer.step(), after the move, stopped. PyTorch&apos;s message:</source>
        <translation>移动之后，它的下一次 optimizer.step() 中止了。PyTorch 的消息：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Its next optimizer.step(), after the move, ran without an error or a warning: the parameters are %1, its state is still %2, and nothing said so.</source>
        <translation>移动之后，它的下一次 optimizer.step() 照常运行，既没有报错也没有警告：参数是 %1，它的状态仍是 %2，而且没有任何提示。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>torch.cuda.is_available() is True: device is %1.</source>
        <translation>torch.cuda.is_available() 为 True：device 是 %1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PyTorch sees %n GPU(s).</source>
        <translation>PyTorch 看到了 %n 块 GPU。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torch.cuda.is_available() is False: device is %1.</source>
        <translation>torch.cuda.is_available() 为 False：device 是 %1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code written with .to(device) runs here unchanged; on a GPU machine the same line picks cuda:0.</source>
        <translation>用 .to(device) 写的代码在这里无需修改即可运行；在有 GPU 的机器上，同一行代码会选中 cuda:0。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>y = x.to(&quot;%1&quot;): y is a new tensor on %2; x is still on %3 (y is x: %4).</source>
        <translation>y = x.to(&quot;%1&quot;)：y 是 %2 上的一个新张量；x 仍在 %3 上（y is x：%4）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>x.to(&quot;%1&quot;) where x already is returns x itself (y is x: %2): PyTorch copies only when something changes.</source>
        <translation>x 已经在 %1 上时，x.to(&quot;%1&quot;) 返回 x 本身（y is x：%2）：只有确实需要改变时，PyTorch 才会复制。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the live model</source>
        <translation>当前模型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>a copy</source>
        <translation>一个副本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>net.to(%1) on %2: returned net itself: %3; the same parameter objects: %4; new data: %5 (%6 → %7).</source>
        <translation>在%2上执行 net.to(%1)：返回的是 net 本身：%3；参数对象不变：%4；数据是新的：%5（%6 → %7）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No GPU here: the model is already on the CPU, so the lesson also casts a copy to torch.float64, which converts each parameter in place as a move to a GPU does.</source>
        <translation>本机没有 GPU：模型本来就在 CPU 上，所以本课还把一个副本转换为 torch.float64，它会像移动到 GPU 一样，原地转换每个参数。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>.cuda() worked: this machine has a GPU.</source>
        <translation>.cuda() 成功了：本机有 GPU。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>.cuda() failed here. PyTorch&apos;s message:</source>
        <translation>.cuda() 在这里失败了。PyTorch 的消息：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>.to(&quot;%1&quot;) worked: %2.</source>
        <translation>.to(&quot;%1&quot;) 成功：%2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Made after the move (to %1), after one step its state is: %2.</source>
        <translation>在移动（到 %1）之后创建，执行一次更新后，其状态位于：%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stepped before the move, its state stayed: %1.</source>
        <translation>在移动之前执行过更新，其状态留在：%1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The placement check says: %1</source>
        <translation>位置检查提示：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No GPU here, so the move is a cast to torch.float64: Module.to converts the parameters the same way, and leaves the optimizer&apos;s state behind the same way. Both runs use copies of the example: the live model is unchanged.</source>
        <translation>本机没有 GPU，所以这里的“移动”是转换为 torch.float64：Module.to 以同样的方式转换参数，也同样把优化器状态留在原处。两次运行都使用示例模型的副本：当前模型不受影响。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>On a GPU the state would stay on the CPU with the parameters on cuda:0, and the next step would not run: on CUDA, SGD takes its multi-tensor path (torch._foreach_* kernels) by default, which checks that each parameter and its state are on one device, and stops with PyTorch&apos;s message:</source>
        <translation>在 GPU 上，状态会留在 CPU 上而参数在 cuda:0 上，下一步将无法运行：在 CUDA 上，SGD 默认走多张量路径（torch._foreach_* 内核），它会检查每个参数与其状态是否在同一设备上，并以 PyTorch 的如下消息中止：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The model is on %1; the input was on %2. PyTorch said:</source>
        <translation>模型在 %1 上；输入在 %2 上。PyTorch 的消息：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(No GPU here, so the lesson used the meta device. On a GPU machine the message reads: %1)</source>
        <translation>（本机没有 GPU，所以本课使用了 meta 设备。在有 GPU 的机器上，消息是：“%1”）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The fix, the input on %1: an output of shape %2 on %3.</source>
        <translation>修正方法：把输入放到 %1 上，得到形状为 %2、位于 %3 上的输出。</translation>
    </message>
</context>
<context>
    <name>MemoryCanvas</name>
    <message>
        <location filename="../../inspector/gui/features/memory/canvas.py" line="+51"/>
        <source>model (params, buffers, grads, optimizer state)</source>
        <extracomment>The curves of one device, in legend order. ``model``: the model&apos;s own bytes there (from the placement ledger, steps at each move). Accelerators: the allocator&apos;s ``allocated`` and ``reserved`` bytes and the driver&apos;s ``used`` (whole device). The CPU: this process&apos;s resident set (``process_rss``) and the machine&apos;s used memory (``machine_used``): neither is the model&apos;s, so they are secondary curves (``SECONDARY_FIGURES``). Not ``total``: a device&apos;s size would flatten every other curve against the floor. Curves shown only on request (&quot;Process &amp; machine&quot; box, or their legend entry) on a machine without an accelerator, where they would dwarf the model. Which column of a reading each CPU figure is drawn from (``MemoryReading`` keeps the RSS in ``allocated`` for the CPU). Up to this many curves the memory legend names each one; beyond (several GPUs) it names the devices (colour) and the figures (line style) apart, so it stays two rows high. The line-style key of that compact legend (translated where shown).</extracomment>
        <translation>模型（参数、缓冲区、梯度、优化器状态）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reserved (cache)</source>
        <translation>已保留（缓存）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>used (driver, whole device)</source>
        <translation>已用（驱动，整个设备）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>other processes (NVML)</source>
        <translation>其他进程 (NVML)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>process RSS</source>
        <translation>进程 RSS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>machine used</source>
        <translation>整机已用</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>model on %1</source>
        <extracomment>The model&apos;s curve is the one to read first: drawn thicker, above the others.</extracomment>
        <translation>%1 上的模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 allocated</source>
        <translation>%1 已分配</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 reserved (cache)</source>
        <translation>%1 已保留（缓存）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 used (driver, whole device)</source>
        <translation>%1 已用（驱动，整个设备）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 other processes (NVML)</source>
        <translation>%1 其他进程 (NVML)</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>time since start (s)</source>
        <extracomment>Process RSS and machine used shown? None: not decided yet (shown once an accelerator appears, hidden on a CPU-only machine); then the user&apos;s choice.</extracomment>
        <translation>自开始以来的时间 (s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+154"/>
        <source>memory (%1)</source>
        <translation>内存 (%1)</translation>
    </message>
</context>
<context>
    <name>MemoryPlot</name>
    <message>
        <location filename="../../inspector/gui/features/memory/plot.py" line="+39"/>
        <source>Whole timeline</source>
        <extracomment>An hour at 20 Hz (the sampler&apos;s fastest rate), two hours at the default 10 Hz. The memory plot&apos;s &quot;Show&quot; choices: label -&gt; seconds of history (None: the whole timeline).</extracomment>
        <translation>整个时间线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 30 s</source>
        <translation>最近 30 s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 5 min</source>
        <translation>最近 5 min</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>parameter</source>
        <extracomment>The model&apos;s kinds of tensors (``tensor_rows.KINDS``) as the hover readout names them.</extracomment>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>grad</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>Freeze the picture; readings are still recorded</source>
        <extracomment>The canvas&apos;s least height: 150 px of drawing area over its axis and legend.</extracomment>
        <translation>冻结画面；读数仍在记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget every reading and marker and start the clock again</source>
        <translation>丢弃所有读数和标记，并重新开始计时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Process RSS &amp;&amp; machine</source>
        <translation>进程 RSS 与整机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Also draw this process&apos;s resident memory (RSS: mostly torch itself) and the whole machine&apos;s used memory. Neither is the model&apos;s; off by default without an accelerator.</source>
        <translation>同时绘制本进程的常驻内存（RSS：主要是 torch 本身）和整机的已用内存。两者都不属于模型；没有加速器时默认关闭。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pause memory plot</source>
        <translation>暂停内存图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear memory plot</source>
        <translation>清除内存图</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>Last %1 s</source>
        <translation>最近 %1 s</translation>
    </message>
</context>
<context>
    <name>MemorySampler</name>
    <message>
        <location filename="../../inspector/gui/state/sampler.py" line="+60"/>
        <source>device discovery failed: see the log for details</source>
        <extracomment>A reading never runs inside a chunk of latency samples (``gui.sample_gate``).</extracomment>
        <translation>设备发现失败：详情请查看日志</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <location filename="../../inspector/gui/shell/menus.py" line="+64"/>
        <source>&amp;File</source>
        <extracomment>Menu title -&gt; its rows, in order.</extracomment>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/model/actions.py" line="+10"/>
        <source>&amp;Open model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/remote/actions.py" line="+11"/>
        <source>Co&amp;nnect to server…</source>
        <translation>连接服务器(&amp;N)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open a second window whose model, moves and benchmarks run on another machine, reached through your own command (ssh HOST torch-device-inspector agent)</source>
        <translation>打开第二个窗口，其模型、移动和基准测试都在另一台机器上运行，通过你自己的命令连接（ssh HOST torch-device-inspector agent）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/report/actions.py" line="-3"/>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open re&amp;port…</source>
        <translation>打开报告(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open a saved .json timing report and compare it with this session</source>
        <translation>打开已保存的 .json 计时报告，并与本次会话比较</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compare &amp;with…</source>
        <translation>与…比较(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare the opened report with a second one from disk</source>
        <translation>将已打开的报告与磁盘上的另一份报告比较</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/menus.py" line="-9"/>
        <source>&amp;Quit</source>
        <extracomment>In a menu&apos;s rows: a separator, the &quot;Open recent&quot; sub-menu, the Language sub-menu (``shell.language_menu``).</extracomment>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/report/actions.py" line="+3"/>
        <source>&amp;Copy report as Markdown</source>
        <translation>复制报告为 Markdown(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put this session&apos;s report on the clipboard, ready to paste into an issue</source>
        <translation>把本次会话的报告放到剪贴板，可直接粘贴到 GitHub 问题报告中</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/menus.py" line="-18"/>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/devices/actions.py" line="+10"/>
        <source>&amp;Refresh devices</source>
        <translation>刷新设备(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/menus.py" line="-21"/>
        <source>&amp;Hide error message</source>
        <translation>隐藏错误消息(&amp;H)</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/fit/actions.py" line="+13"/>
        <source>Will it &amp;fit?…</source>
        <translation>放得下吗？(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory of one step on each device, estimated without allocating, then proven</source>
        <translation>一次训练步在每个设备上所需的内存：先不分配内存进行估算，再实际验证</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/training/actions.py" line="+10"/>
        <source>Run one &amp;training step…</source>
        <translation>运行一次训练步(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One real forward, backward and optimizer step on the model: its weights change, and its gradients and optimizer state appear in the tree</source>
        <translation>在模型上真实执行一次前向传播、反向传播和优化器更新：权重会改变，梯度和优化器状态会出现在树中</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/menus.py" line="+4"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/help/actions.py" line="+14"/>
        <source>&amp;Getting started</source>
        <translation>入门(&amp;G)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What to click first, on a machine with and without a GPU</source>
        <translation>在有 GPU 和没有 GPU 的机器上，分别先点什么</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/lessons/actions.py" line="+12"/>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The tutorial&apos;s lessons, each run for real on this machine</source>
        <translation>教程中的各课内容，每一课都在本机上真实运行</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/help/actions.py" line="+2"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The &amp;report format</source>
        <translation>报告格式(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What an exported timing report holds, and its formats</source>
        <translation>导出的计时报告包含哪些内容，以及它的格式</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;About Torch Device Inspector</source>
        <translation>关于 Torch Device Inspector(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/menus.py" line="+37"/>
        <location line="+19"/>
        <source>Open &amp;recent</source>
        <extracomment>The &quot;Open recent&quot; sub-menu (``window_settings.RecentModels`` fills it). The menu the Language sub-menu goes into (``LanguageMenu``).</extracomment>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/tensor_table/actions.py" line="+10"/>
        <source>Copy tensor &amp;table as CSV</source>
        <translation>将张量表复制为 CSV(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put one row per tensor of the model (parameters, buffers, grads, optimizer state) on the clipboard: its device, dtype, shape and bytes</source>
        <translation>把模型的每个张量（参数、缓冲区、梯度、优化器状态）作为一行放到剪贴板：其设备、数据类型、形状和字节数</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/devices_csv/feature.py" line="+17"/>
        <source>Copy &amp;devices table as CSV</source>
        <translation>将设备表复制为 CSV(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put one row per device (its type, name and memory as last read) on the clipboard</source>
        <translation>将每个设备一行（类型、名称和最近读取的内存）放到剪贴板</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../../inspector/gui/common/message_bar.py" line="+122"/>
        <source>Hide this message</source>
        <translation>隐藏此消息</translation>
    </message>
</context>
<context>
    <name>ModelCommands</name>
    <message>
        <location filename="../../inspector/gui/features/latency/launch.py" line="+78"/>
        <source>benchmark ×%1 train step · %2 %3</source>
        <translation>基准测试 ×%1 训练步 · %2 %3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>benchmark ×%1 · %2 %3</source>
        <translation>基准测试 ×%1 · %2 %3</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/training/step.py" line="+69"/>
        <source>Input shape: %1</source>
        <translation>输入形状：%1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/moves/commands.py" line="+97"/>
        <source>no snippet for this move: %1</source>
        <translation>此移动没有对应的代码片段：%1</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Equivalent PyTorch code: %1</source>
        <translation>等价的 PyTorch 代码：%1</translation>
    </message>
</context>
<context>
    <name>ModelOpener</name>
    <message>
        <location filename="../../inspector/gui/features/model/opener.py" line="+70"/>
        <source>load %1</source>
        <extracomment>The last load that failed (the Open model dialog reopens on it, to fix); None once one succeeds. (spec, input text) a preset or the Open model dialog gave for the load under way.</extracomment>
        <translation>加载 %1</translation>
    </message>
</context>
<context>
    <name>ModelWorker</name>
    <message>
        <location filename="../../inspector/gui/state/workers.py" line="+281"/>
        <source>cancelled before the estimate for %1</source>
        <extracomment>Progress and streamed samples reach the window at most this often: a benchmark of a tiny model takes a sample every few microseconds, and a signal per sample would flood the GUI. Parks the window&apos;s threads around each chunk of samples (``gui.state.sample_gate``); a remote session&apos;s samples are taken in the agent&apos;s process and need none.</extracomment>
        <translation>在估算 %1 之前已取消</translation>
    </message>
</context>
<context>
    <name>ModuleSummary</name>
    <message>
        <location filename="../../inspector/gui/common/module_summary.py" line="+21"/>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>⚠ per-module figures not reliable: %1</source>
        <translation>⚠ 逐模块数据不可靠：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>no module ran</source>
        <translation>没有模块运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>top: %1</source>
        <translation>最耗时：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(⚠ per-module figures not reliable)</source>
        <translation>（⚠ 逐模块数据不可靠）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Top %1 modules by self time on %2 %3 (share of all modules&apos; self time): %4</source>
        <translation>%2 %3 上自身耗时最多的 %1 个模块（占所有模块自身耗时之和的比例）：%4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Top %1 modules by self time (share of all modules&apos; self time): %2</source>
        <translation>自身耗时最多的 %1 个模块（占所有模块自身耗时之和的比例）：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (%2): self %3, %4 of the model&apos;s time with its children, output %5, %6</source>
        <translation>%1 (%2)：自身 %3，连同子模块占模型耗时的 %4，输出 %5，%6</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the hooks&apos; own cost, %1 a module call (measured on empty modules), is taken out of every module&apos;s time; the modules&apos; self times add up to %2, %3 the forward without hooks</source>
        <translation>已从每个模块的时间中扣除钩子本身的开销，每次模块调用 %1（在空模块上测得）；各模块自身耗时之和为 %2，是不带钩子的前向传播的 %3</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Top 5 modules by self time (the model tree&apos;s Time column has every module):</source>
        <translation>自身耗时最多的 5 个模块（模型树的“时间”列列出了每个模块）：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>forward with per-module hooks %1, without %2 (%3 — the hooks&apos; own cost); %4 per forward (FlopCounterMode)</source>
        <translation>带逐模块钩子的前向传播 %1，不带钩子 %2（%3 —— 钩子本身的开销）；每次前向传播 %4 (FlopCounterMode)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>forward with per-module hooks %1; %2 per forward (FlopCounterMode)</source>
        <translation>带逐模块钩子的前向传播 %1；每次前向传播 %2 (FlopCounterMode)</translation>
    </message>
</context>
<context>
    <name>OpenModelDialog</name>
    <message>
        <location filename="../../inspector/gui/common/dialogs.py" line="-275"/>
        <source>PyTorch models (%1)</source>
        <translation>PyTorch 模型 (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Python factories (%1)</source>
        <translation>Python 工厂函数 (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files (%1)</source>
        <translation>所有文件 (%1)</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a preset…</source>
        <translation>选择预设…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its own</source>
        <translation>自带</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · input %2: %3</source>
        <translation>%1 · 输入 %2：%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fills the model spec and its input shape</source>
        <translation>填入模型规格及其输入形状</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>example, path/to/model.pt, package.module:factory or file.py:factory</source>
        <translation>&quot;example&quot;、path/to/model.pt、package.module:factory 或 file.py:factory</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>only for state dicts / .safetensors: package.module:factory</source>
        <translation>仅用于 state_dict / .safetensors：package.module:factory</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the model&apos;s own; else e.g. 1,3,224,224 or 10,32,512; 20,32,512</source>
        <translation>模型自带的输入；否则例如 1,3,224,224 或 10,32,512; 20,32,512</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fills the window&apos;s input-shape field once the model is loaded</source>
        <translation>模型加载后，填入窗口的输入形状字段</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Architecture</source>
        <translation>结构</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input shape</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This file holds only weights: name the model they belong to here (package.module:factory or path/to/model.py:Net).</source>
        <translation>此文件只包含权重：请在这里写明它们所属的模型（package.module:factory 或 path/to/model.py:Net）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A file that needs to run code to load (a whole pickled module) is refused unless you confirm that you trust it.</source>
        <translation>需要运行代码才能加载的文件（整个被 pickle 的模块）会被拒绝，除非你确认信任它。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Recent models</source>
        <translation>最近的模型</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Open model file</source>
        <translation>打开模型文件</translation>
    </message>
</context>
<context>
    <name>OutcomeWords</name>
    <message>
        <location filename="../../inspector/gui/features/model/shown.py" line="+92"/>
        <source>Model — %1 (%2)</source>
        <extracomment>Its &quot;move this module&quot; asks where to (the action bar&apos;s target device and dtype).</extracomment>
        <translation>模型 — %1 (%2)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>model input %1</source>
        <translation>模型输入 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>needed, e.g. 1,3,224,224</source>
        <translation>必填，例如 1,3,224,224</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="+76"/>
        <source>%1 (%2): %n tensors, %3%4</source>
        <translation>%1 (%2)：%n 个张量，%3%4</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+114"/>
        <source>loaded %1</source>
        <extracomment>The note whose failure the banner shows (said again on a change of language), and that failure.</extracomment>
        <translation>已加载 %1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="+80"/>
        <source>%1 → %2: %3 as %4</source>
        <translation>%1 → %2：%3，转换为 %4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2：%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+6"/>
        <source>moved in %1</source>
        <translation>移动用时 %1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="+4"/>
        <source>cancelled: rolled back, the model is as before</source>
        <translation>已取消：已回滚，模型保持原样</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/memory/follows.py" line="+82"/>
        <location line="+21"/>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+5"/>
        <location line="+33"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/common/outcome_words.py" line="+18"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="-30"/>
        <source>move failed</source>
        <translation>移动失败</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/memory/follows.py" line="-19"/>
        <location line="+19"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="+7"/>
        <source>%1 ×%2 · %3 %4 · input %5</source>
        <translation>%1 ×%2 · %3 %4 · 输入 %5</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>median %1 · p95 %2</source>
        <translation>中位数 %1 · p95 %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>p5 %1, mean %2, min %3, max %4; first call %5</source>
        <translation>p5 %1，均值 %2，最小 %3，最大 %4；首次调用 %5</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>95 % CI of the median %1 – %2, IQR %3; timed by %4</source>
        <translation>中位数的 95% 置信区间 %1 – %2，IQR %3；计时方式 %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>IQR %1; timed by %2</source>
        <translation>IQR %1；计时方式 %2</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/memory/follows.py" line="-15"/>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+51"/>
        <source>median %1</source>
        <translation>中位数 %1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/latency/follows.py" line="+128"/>
        <source>no snippet for this measurement: %1</source>
        <translation>此次测量没有代码片段：%1</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Equivalent PyTorch code: %1 timing on %2</source>
        <extracomment>The run planned last, and the series key whose items were made for it (None: none new).</extracomment>
        <translation>等价的 PyTorch 代码：在 %2 上计时%1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="-36"/>
        <source>moving %1 / %2</source>
        <translation>正在移动 %1 / %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>sample %1 / %2</source>
        <translation>样本 %1 / %2</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="-89"/>
        <source>cancelled: nothing of the model was touched</source>
        <translation>已取消：模型未被改动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled: the file was not loaded, the model shown is unchanged</source>
        <translation>已取消：文件未加载，显示的模型保持不变</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled: stopped between samples</source>
        <translation>已取消：在两个样本之间停止</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/common/outcome_words.py" line="+5"/>
        <source>%1: enter it in the Architecture field of File › Open model… (it opens with this file filled in)</source>
        <translation>%1：请在“文件 › 打开模型…”的“结构”字段中填写（对话框打开时已填入此文件）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+20"/>
        <source>%1 failed</source>
        <translation>%1失败</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="+20"/>
        <source>will it fit?</source>
        <translation>放得下吗？</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>(no tensor)</source>
        <translation>（无张量）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>loss %1 · %2 on %3 %4: gradients and optimizer state are in the tree</source>
        <translation>损失 %1 · %2，在 %3 %4 上：梯度和优化器状态已显示在树中</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/training/step.py" line="+19"/>
        <source>a stand-in loss</source>
        <translation>代替真实损失</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>each parameter gets a .grad</source>
        <translation>每个参数得到 .grad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the optimizer keeps state</source>
        <translation>优化器保存状态</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>trained 1 step</source>
        <translation>已训练 1 步</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/memory/follows.py" line="+4"/>
        <source>loss %1</source>
        <translation>损失 %1</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/training/step.py" line="+1"/>
        <source>Equivalent PyTorch code: one training step</source>
        <translation>等价的 PyTorch 代码：一次训练步</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/lessons/follows.py" line="+45"/>
        <location filename="../../inspector/gui/features/memory/follows.py" line="+4"/>
        <source>lesson %1</source>
        <translation>第 %1 课</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+9"/>
        <source>lesson %1 done</source>
        <translation>第 %1 课完成</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/lessons/follows.py" line="+3"/>
        <source>Lesson %1</source>
        <translation>第 %1 课</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+7"/>
        <source>%1 · noisy</source>
        <translation>%1 · 有噪声</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/common/outcome_words.py" line="+9"/>
        <source>%1 fits (%2)</source>
        <translation>%1 放得下（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 does not fit (%2)</source>
        <translation>%1 放不下（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 unknown (%2)</source>
        <translation>%1 未知（%2）</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/outcomes/shown.py" line="+6"/>
        <source>fit failed</source>
        <translation>“放得下吗？”失败</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/history/rows.py" line="+75"/>
        <source>%1 before: process RSS %2, used %3 of %4</source>
        <translation>%1 移动前：进程 RSS %2，已用 %3 / %4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 after: process RSS %2, used %3 of %4</source>
        <translation>%1 移动后：进程 RSS %2，已用 %3 / %4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 before: allocated %2, used %3 of %4</source>
        <translation>%1 移动前：已分配 %2，已用 %3 / %4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 after: allocated %2, used %3 of %4</source>
        <translation>%1 移动后：已分配 %2，已用 %3 / %4</translation>
    </message>
</context>
<context>
    <name>ParameterCells</name>
    <message>
        <location filename="../../inspector/gui/features/model/cells.py" line="+57"/>
        <source>parameter</source>
        <extracomment>A tensor&apos;s shape, as ``TensorRow.shape`` holds it. Turns a marked text of this module (or a text of core&apos;s) into the words shown.</extracomment>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grad</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>% of forward</source>
        <translation>占前向传播 %</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output shape</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>What the row holds: a parameter, buffer, gradient or optimizer state; &quot;module (N)&quot; = a module and the N tensors under it.</source>
        <extracomment>The per-module columns: empty (and hidden by the panel) until a per-module run. Header tooltips: what a column means where its title cannot say it all.</extracomment>
        <translation>这一行是什么：参数、缓冲区、梯度或优化器状态；“模块 (N)” = 一个模块及其下的 N 个张量。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Grad, for a parameter: &quot;yes&quot; = requires_grad (training updates it), &quot;no&quot; = frozen; &quot;· has .grad&quot; = a backward pass left a gradient in it now (its .grad row is listed too). Gradients appear after a training step (Tools › Run one training step).</source>
        <translation>梯度，对参数而言：“是” = requires_grad（训练会更新它），“否” = 已冻结；“· 有 .grad” = 反向传播在它上面留下了梯度（它的 .grad 行也会列出）。梯度在训练步之后出现（工具 › 运行一次训练步）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Memory really allocated; tensors sharing a storage (tied weights, views) are counted once in the totals.</source>
        <translation>实际分配的内存；共享同一存储的张量（共享权重、视图）在总计中只计一次。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Time: the module&apos;s call with its children (median of the per-module run), the hooks&apos; own cost taken out; % of forward: that time over the model&apos;s own in the same run (the model&apos;s row 100 %, a module&apos;s never more than its parent&apos;s).</source>
        <translation>时间：模块一次调用（含子模块）的耗时（逐模块测量的中位数），已扣除钩子本身的开销；占前向传播 %：该时间占同一次测量中模型自身耗时的比例（模型这一行为 100 %，子模块永远不超过其父模块）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>⚠ Per-module figures not reliable:</source>
        <translation>⚠ 逐模块数据不可靠：</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>(tied) %1</source>
        <translation>（共享）%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(view) %1</source>
        <translation>（视图）%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>yes · has .grad</source>
        <translation>是 · 有 .grad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no · has .grad</source>
        <translation>否 · 有 .grad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>module (%1)</source>
        <translation>模块 (%1)</translation>
    </message>
    <message>
        <location line="+41"/>
        <location line="+23"/>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>%1 — %2 tensors, %3</source>
        <translation>%1 — %2 个张量，%3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 — %2, %3 elements on %4</source>
        <translation>%1 — %2，%3 个元素，位于 %4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a view of %1&apos;s storage (counted once in the totals, there)</source>
        <translation>%1 的存储的一个视图（在总计中只计一次，计在 %1 上）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>shares its storage with %1 (counted once in the totals)</source>
        <translation>与 %1 共享存储（在总计中只计一次）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>its storage holds %1 (what the totals count, once)</source>
        <translation>其存储占 %1（总计按此计一次）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 (%2) on %3, called %4× per forward</source>
        <translation>%1（%2）位于 %3，每次前向传播调用 %4 次</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (%2) on %3</source>
        <translation>%1（%2）位于 %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>median %1 with its children, %2 itself</source>
        <translation>中位数 %1（含子模块），自身 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>outputs %1 of new tensors; parameters %2</source>
        <translation>输出新张量 %1；参数 %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>on the meta device: nothing allocated; %1 once materialised</source>
        <translation>位于 meta 设备：未分配内存；实际分配后为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>quantized: %1 of integer storage</source>
        <translation>量化：%1 的整数存储</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: %2 of indices and values (%3 if dense)</source>
        <translation>%1：索引和值共 %2（稠密时为 %3）</translation>
    </message>
</context>
<context>
    <name>ParametersPanel</name>
    <message>
        <location filename="../../inspector/gui/features/model/panel.py" line="+155"/>
        <source>Filter: name, device, dtype or kind (e.g. cuda float16 weight)</source>
        <extracomment>Models up to this many tensors open fully expanded; bigger ones show their top level. The Name column never gets narrower than this (the others scroll sideways instead): &quot;in_p…weight&quot; four modules deep (names elide in the middle; the tooltip has them whole). The other columns are sized to what they show (``fit_columns``), each at most this wide: a longer cell (a mixed module&apos;s dtypes, a 6-d shape) elides, its tooltip has it whole. The columns&apos; order on screen (the model&apos;s own order stays, for code and tests). Under the filter field when the filter hides every row: an empty tree says why. The spec of the model shown: another one clears the filter (``model_loaded``). The move a &quot;Copy the .to() line&quot; writes: () -&gt; (device, dtype or None). The window points it at the action bar&apos;s target.</extracomment>
        <translation>筛选：名称、设备、数据类型或类别（例如 cuda float16 weight）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rows whose full name, kind, dtype or device contain every word; empty shows all</source>
        <translation>显示完整名称、类别、数据类型或设备包含每个词的行；留空显示全部</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>No row matches “%1”: clear the filter to see every row.</source>
        <translation>没有与“%1”匹配的行：清空筛选即可看到所有行。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy name: %1</source>
        <translation>复制名称：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the model</source>
        <translation>整个模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the .to() line for %1</source>
        <translation>复制 %1 的 .to() 语句</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>⚠ Placement warnings</source>
        <translation>⚠ 位置警告</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 tensors · %2 elements · %3</source>
        <translation>%1 个张量 · %2 个元素 · %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no tensors</source>
        <translation>没有张量</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <location filename="../../inspector/gui/common/dialogs.py" line="+35"/>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory sampling rate</source>
        <translation>内存采样频率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How often device memory is read for the table and the memory plot</source>
        <translation>为设备表和内存图读取设备内存的频率</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <location line="-212"/>
        <source>The tutorial&apos;s example (Linear 3→2→1)</source>
        <extracomment>The presets&apos; labels and descriptions (``core.files.presets.PRESETS``), marked for translation; shown through ``translate(&quot;Presets&quot;, text)``. A test keeps them in step.</extracomment>
        <translation>教程中的示例（Linear 3→2→1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>brings its own (64, 3) input</source>
        <translation>自带 (64, 3) 的输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CNN with BatchNorm</source>
        <translation>带 BatchNorm 的 CNN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>8 RGB images of 32×32</source>
        <translation>8 张 32×32 的 RGB 图像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transformer (torch.nn.Transformer, two inputs)</source>
        <translation>Transformer（torch.nn.Transformer，两个输入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>src and tgt: (sequence, batch, d_model=512)</source>
        <translation>src 和 tgt：(sequence, batch, d_model=512)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MLP on 28×28 images</source>
        <translation>处理 28×28 图像的 MLP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>64 flattened images</source>
        <translation>64 张展平的图像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token model (Embedding + LSTM, int64 ids)</source>
        <translation>词元模型（Embedding + LSTM，int64 ID）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>8 sequences of 64 token ids below the embedding&apos;s 1,000</source>
        <translation>8 个序列，每个含 64 个小于嵌入表大小 1,000 的词元 ID</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <location filename="../../inspector/gui/common/qt_own_texts.py" line="+35"/>
        <source>Folder</source>
        <comment>All other platforms</comment>
        <translation>文件夹</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location line="-10"/>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>RanksView</name>
    <message>
        <location filename="../../inspector/gui/features/ranks/table.py" line="+33"/>
        <source>Rank</source>
        <translation>进程号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Median (ms)</source>
        <translation>中位数 (ms)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p5–p95 (ms)</source>
        <translation>p5–p95 (ms)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>vs fastest</source>
        <translation>相对最快</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>median (ms)</source>
        <translation>中位数 (ms)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rank</source>
        <translation>进程号</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+98"/>
        <source>Ranks</source>
        <translation>各进程</translation>
    </message>
    <message>
        <location line="-78"/>
        <source>%n rank on 1 host</source>
        <translation>%n 个进程，位于 1 台主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n ranks on 1 host</source>
        <translation>%n 个进程，位于 1 台主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n ranks on %1 hosts</source>
        <translation>%n 个进程，位于 %1 台主机</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>slowest: rank %1 (%2 on %3), median %4 ms</source>
        <translation>最慢：进程 %1（%3 上的 %2），中位数 %4 ms</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>spread %1: the slowest rank&apos;s median over the fastest&apos;s (rank %2, %3 ms)</source>
        <translation>差距 %1：最慢进程的中位数相对最快进程（进程 %2，%3 ms）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>failed: ranks %1</source>
        <translation>失败：进程 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed: rank %1</source>
        <translation>失败：进程 %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the slowest rank</source>
        <translation>最慢的进程</translation>
    </message>
</context>
<context>
    <name>RecentModels</name>
    <message>
        <location filename="../../inspector/gui/common/window_settings.py" line="+62"/>
        <source>Clear the list</source>
        <extracomment>Input texts remembered per model spec, newest kept.</extracomment>
        <translation>清空列表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No recent models</source>
        <translation>没有最近打开的模型</translation>
    </message>
</context>
<context>
    <name>RemoteWindow</name>
    <message>
        <location filename="../../inspector/gui/shell/remote_window.py" line="+117"/>
        <source>connecting…</source>
        <extracomment>The local window opened it; closed, it goes. No saved layout (that is the local window&apos;s), and a close just ends the agent. The local recent list holds this machine&apos;s specs; this window opens the server&apos;s. The connection to the agent (made with the workers).</extracomment>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start the agent again with the same command and reopen the model</source>
        <translation>用同一条命令重新启动代理，并重新打开模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disconnect</source>
        <translation>断开连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>End the agent on the server; what was measured stays in this window</source>
        <translation>结束服务器上的代理；已测得的结果保留在此窗口中</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/features/devices/follows.py" line="+49"/>
        <source>Devices on %1</source>
        <extracomment>The device table repaints from the 10 Hz samples at most this often.</extracomment>
        <translation>%1 上的设备</translation>
    </message>
    <message>
        <location filename="../../inspector/gui/shell/remote_window.py" line="+3"/>
        <source>The lessons run in the local window: the agent on %1 cannot run them</source>
        <translation>“课程”只在本地窗口中运行：%1 上的代理无法运行它们</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Connected to %1 · agent %2 · torch %3 · Python %4</source>
        <translation>已连接到 %1 · 代理 %2 · torch %3 · Python %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Connected to %1 (%2) · agent %3 · torch %4 · Python %5</source>
        <translation>已连接到 %1（%2） · 代理 %3 · torch %4 · Python %5</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Disconnected from %1: what was measured stays here</source>
        <translation>已与 %1 断开连接：已测得的结果保留在这里</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connection to %1 lost</source>
        <translation>与 %1 的连接已中断</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reconnecting to %1…</source>
        <translation>正在重新连接到 %1…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connecting to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <location line="+115"/>
        <source>The connection to %1 was lost (%2). What was measured stays in this window and can be exported; Reconnect starts the agent again and reopens the model.</source>
        <translation>与 %1 的连接已中断（%2）。已测得的结果保留在此窗口中，仍可导出；“重新连接”会重新启动代理并重新打开模型。</translation>
    </message>
    <message>
        <location line="-75"/>
        <source>connection to %1</source>
        <translation>与 %1 的连接</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>connect %1</source>
        <translation>连接 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>agent %1, torch %2, pid %3</source>
        <translation>代理 %1，torch %2，pid %3</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>disconnect %1</source>
        <translation>断开 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the agent was ended</source>
        <translation>代理已结束</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>lost: %1</source>
        <translation>已中断：%1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Open model on %1</source>
        <translation>在 %1 上打开模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>on %1: example, /path/there/model.pt, package.module:factory</source>
        <translation>在 %1 上：&quot;example&quot;、/path/there/model.pt、package.module:factory</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&lt;b&gt;%1&lt;/b&gt; on &lt;b&gt;%2&lt;/b&gt; needs to run code to load.</source>
        <translation>&lt;b&gt;%2&lt;/b&gt; 上的 &lt;b&gt;%1&lt;/b&gt; 需要运行代码才能加载。</translation>
    </message>
</context>
<context>
    <name>ReportExport</name>
    <message>
        <location filename="../../inspector/gui/features/report/export.py" line="+63"/>
        <source>JSON report, opens again</source>
        <extracomment>Plot images are rendered at this size whatever the window&apos;s size, so reports compare. For QFileDialog.getSaveFileName: one filter per format ``save_report`` writes (its name translated where shown, its pattern as it is).</extracomment>
        <translation>JSON 报告（可再次打开）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML page with plots</source>
        <translation>带图表的 HTML 页面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Markdown for a bug report</source>
        <translation>Markdown，用于问题报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV of the latency samples, to pivot</source>
        <translation>延迟样本的 CSV，用于数据透视</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZIP of CSV tables, one per section</source>
        <translation>CSV 表格的 ZIP 包，每个部分一张表</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>HTML page with plots, in English for sharing</source>
        <extracomment>The formats written in words (the others are data): each has a second filter, in English for sharing, when the window speaks another language.</extracomment>
        <translation>带图表的 HTML 页面，英文版（便于分享）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Markdown for a bug report, in English for sharing</source>
        <translation>Markdown，用于问题报告，英文版（便于分享）</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Replace the file?</source>
        <extracomment>QSettings: the suffix of the format last written in English for sharing (the dialog then starts on that filter), &quot;&quot; once a report in words was written in the window&apos;s language.</extracomment>
        <translation>替换该文件？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 already exists.</source>
        <translation>%1 已存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace it with the report? What it holds now is lost.</source>
        <translation>用报告替换它吗？它现有的内容将会丢失。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose another name</source>
        <translation>另选文件名</translation>
    </message>
</context>
<context>
    <name>ReportExporter</name>
    <message>
        <location line="+177"/>
        <source>could not export the report to %1: %2</source>
        <translation>无法将报告导出到 %1：%2</translation>
    </message>
</context>
<context>
    <name>ReportFlow</name>
    <message>
        <location filename="../../inspector/gui/features/report/flow.py" line="+66"/>
        <source>Timing report</source>
        <translation>计时报告</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>All files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>Export timing report</source>
        <extracomment>The latest report the worker built for this session (any purpose), and the session&apos;s revision when side A was last asked for (``SessionState.revision``: a load, move, benchmark, training step or lesson since makes it old). The file the ReportExporter is writing, when it was asked for, and its report. The language each file asked for is to be written in, until its report is built.</extracomment>
        <translation>导出计时报告</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Open a timing report</source>
        <translation>打开计时报告</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Compare with a second timing report</source>
        <translation>与另一份计时报告比较</translation>
    </message>
    <message>
        <location line="+51"/>
        <location line="+67"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="-48"/>
        <source>Copied the report as Markdown: paste it into an issue or a chat</source>
        <translation>已将报告复制为 Markdown：可粘贴到 GitHub 问题报告 或聊天中</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+9"/>
        <source>writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>written</source>
        <translation>已写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Report written: %1</source>
        <translation>报告已写入：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>shown in the Compare tab</source>
        <translation>已在“比较”标签页中显示</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <location filename="../../inspector/gui/common/report_view_texts.py" line="+9"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Readings</source>
        <translation>读数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak allocated</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak reserved</source>
        <translation>已保留峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak process RSS</source>
        <translation>进程 RSS 峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak used</source>
        <translation>已用峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak other processes</source>
        <translation>其他进程峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency samples</source>
        <translation>延迟样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency summary</source>
        <translation>延迟汇总</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The plots were left out because PySide6 is not installed.</source>
        <translation>未安装 PySide6，因此报告中没有图表。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The plots were left out of this report.</source>
        <translation>本报告未包含图表。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The plots are labelled in English.</source>
        <translation>图表中的文字为英文。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-module figures not reliable:</source>
        <translation>逐模块数据不可靠：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top modules</source>
        <translation>耗时最多的模块</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>By self time; all {count} modules are in the JSON report.</source>
        <translation>按自身耗时排序；全部 {count} 个模块见 JSON 报告。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Will it fit?</source>
        <translation>放得下吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timing report — {spec}</source>
        <translation>计时报告 — {spec}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created {created} by torch-device-inspector {version}, report schema {schema}.</source>
        <translation>由 torch-device-inspector {version} 创建于 {created}，报告格式版本 {schema}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torchrun; the tables above are rank 0&apos;s</source>
        <translation>torchrun；上面的表格是 0 号进程的结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Moves</source>
        <translation>移动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No moves.</source>
        <translation>没有移动。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No latency measured.</source>
        <translation>未测量延迟。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ranks</source>
        <translation>各进程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No memory readings.</source>
        <translation>没有内存读数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torch-device-inspector timing report</source>
        <translation>torch-device-inspector 计时报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created {created}</source>
        <translation>创建于 {created}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>by self time; {count} in the JSON</source>
        <translation>按自身耗时排序；全部 {count} 个见 JSON</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per-module figures not reliable: {reason}</source>
        <translation>逐模块数据不可靠：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output shape</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Self</source>
        <translation>自身耗时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inclusive</source>
        <translation>含子模块耗时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>% of forward</source>
        <translation>占前向传播 %</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Estimated peak</source>
        <translation>估计峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured peak</source>
        <translation>实测峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured / estimated</source>
        <translation>实测 / 估计</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Free</source>
        <translation>可用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Planned peak</source>
        <translation>规划峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured / planned</source>
        <translation>实测 / 规划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}: forward {time} with per-module hooks</source>
        <translation>{device}：带逐模块钩子的前向传播 {time}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, {time} without ({ratio}×: the hooks&apos; overhead)</source>
        <translation>，不带钩子 {time}（{ratio}×：钩子的开销）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; {flops} per forward (FlopCounterMode)</source>
        <translation>；每次前向传播 {flops} (FlopCounterMode)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; the hooks&apos; own cost, {time} a module call (measured on empty modules), is taken out of the times</source>
        <translation>；已从时间中扣除钩子本身的开销，每次模块调用 {time}（在空模块上测得）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; the modules&apos; self times add up to {time}, {ratio}× the forward without hooks</source>
        <translation>；各模块自身耗时之和为 {time}，是不带钩子的前向传播的 {ratio}×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}, each of {gpus} ranks ({strategy})</source>
        <translation>{device}，{gpus} 个 rank 中的每一个（{strategy}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{gpus} ranks, {strategy}: each rank&apos;s peak; measured: {reason}</source>
        <translation>{gpus} 个 rank，{strategy}：每个 rank 的峰值；实测：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>each</source>
        <translation>每个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{cpu}, {cores} cores / {threads} threads, PyTorch uses {torch_threads} threads</source>
        <translation>{cpu}，{cores} 个核心 / {threads} 个线程，PyTorch 使用 {torch_threads} 个线程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OS</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU pages</source>
        <translation>CPU 内存页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Spec</source>
        <translation>模型描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Class</source>
        <translation>类</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; {size} more on meta, not allocated</source>
        <translation>；另有 {size} 在 meta 上，未分配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Call</source>
        <translation>调用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source → target</source>
        <translation>源 → 目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes</source>
        <translation>字节数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>First call</source>
        <translation>首次调用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Median 95 % CI</source>
        <translation>中位数 95 % 置信区间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Rank</source>
        <translation>进程号</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forward</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed: {error}</source>
        <translation>失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled: {error}</source>
        <translation>已取消：{error}</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <location filename="../../inspector/gui/common/status_line.py" line="+47"/>
        <location line="+28"/>
        <source>Starting…</source>
        <extracomment>The most characters a passing message shows.</extracomment>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location line="-26"/>
        <location line="+28"/>
        <source>Cancelling the %1…</source>
        <translation>正在取消%1…</translation>
    </message>
    <message>
        <location line="-30"/>
        <location line="+32"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="-31"/>
        <location line="+33"/>
        <source>Busy: %1</source>
        <translation>忙碌：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Model: none yet</source>
        <translation>模型：尚未加载</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model: %1 (%2)</source>
        <translation>模型：%1（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no tensors</source>
        <translation>没有张量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>On: %1 · %2</source>
        <translation>位于：%1 · %2</translation>
    </message>
</context>
<context>
    <name>StuckNotice</name>
    <message>
        <location filename="../../inspector/gui/shell/stuck_notice.py" line="+115"/>
        <source>The model&apos;s forward pass has not returned</source>
        <translation>模型的前向传播尚未返回</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel was pressed, but the model&apos;s forward pass is still running, and it cannot be interrupted: the benchmark stops as soon as it returns. You can keep waiting, or save the settings and quit the app (what was measured and not exported is lost).</source>
        <translation>已按下取消，但模型的前向传播仍在运行，且无法中断：它一返回，基准测试就会停止。您可以继续等待，或保存设置并退出应用（已测量但未导出的结果将会丢失）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The %1 has not stopped</source>
        <translation>%1尚未停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel was pressed, but the %1 is still inside a call that cannot be interrupted (the model&apos;s code or the device&apos;s driver): it stops as soon as that call returns. You can keep waiting, or save the settings and quit the app (what was measured and not exported is lost).</source>
        <translation>已按下取消，但%1仍在一个无法中断的调用中（模型的代码或设备的驱动程序）：该调用一返回，它就会停止。您可以继续等待，或保存设置并退出应用（已测量但未导出的结果将会丢失）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Keep waiting</source>
        <translation>继续等待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save settings and quit</source>
        <translation>保存设置并退出</translation>
    </message>
</context>
<context>
    <name>Task</name>
    <message>
        <location filename="../../inspector/gui/common/task_words.py" line="+41"/>
        <source>load</source>
        <extracomment>Each task&apos;s name as the window shows it (&quot;Busy: benchmark&quot;), marked for translation.</extracomment>
        <translation>加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>move</source>
        <translation>移动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>benchmark</source>
        <translation>基准测试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>report</source>
        <translation>报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fit</source>
        <translation>放得下吗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lesson</source>
        <translation>课程</translation>
    </message>
</context>
<context>
    <name>TaskMarks</name>
    <message>
        <location filename="../../inspector/gui/features/memory/task_marks.py" line="+49"/>
        <source>%1 (%2)</source>
        <extracomment>The running task&apos;s line: (time.time() it started, label). Marks (label, start, end or None) made before the plot was attached.</extracomment>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>TensorTable</name>
    <message>
        <location filename="../../inspector/gui/features/tensor_table/copy.py" line="+50"/>
        <source>No model is loaded: there is no tensor table to copy</source>
        <translation>尚未加载模型：没有可复制的张量表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tensor table copied as CSV: %1 rows</source>
        <translation>已将张量表复制为 CSV：%1 行</translation>
    </message>
</context>
<context>
    <name>Throughput</name>
    <message>
        <location filename="../../inspector/gui/features/latency/summary_bars.py" line="+69"/>
        <source>%1 steps/s</source>
        <translation>%1 步/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 calls/s</source>
        <translation>%1 次调用/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 · %2 items/s (batch %3)</source>
        <translation>%1 · %2 项/s（批大小 %3）</translation>
    </message>
</context>
<context>
    <name>Vocabulary</name>
    <message>
        <location filename="../../inspector/gui/common/vocabulary_words.py" line="+27"/>
        <source>forward</source>
        <translation>前向传播</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>train-step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>host clock</source>
        <translation>主机时钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cuda events</source>
        <translation>CUDA 事件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>xpu events</source>
        <translation>XPU 事件</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+39"/>
        <source>example</source>
        <translation>示例</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>factory</source>
        <translation>工厂函数</translation>
    </message>
</context>
</TS>
