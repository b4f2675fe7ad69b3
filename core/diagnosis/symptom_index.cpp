// See symptom_index.h. A word matches where it starts and ends at word boundaries (a letter or digit next to it
// continues the word), so "shm" never matches inside "shmem" and "oom" never inside "room"; a '*' word may continue.
#include "core/diagnosis/symptom_index.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace stackscope {

namespace {

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool digitsAt(const std::string& s, std::size_t at, std::size_t n)
{
    if (s.size() < at + n)
        return false;
    return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(at), s.begin() + static_cast<std::ptrdiff_t>(at + n),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

// A record a program logged rather than words a person wrote: it starts with a date ("2024-05-10 22:52:48",
// "[2024-05-10T...", logfmt's "time=..."/"level=...") or glog's "W0510 22:52:48". Its words are the program's
// message (a rule names it, or nothing should), never a description of the fault.
bool writtenByProgram(const std::string& line)
{
    const std::size_t at = !line.empty() && line[0] == '[' ? 1 : 0;
    if (digitsAt(line, at, 4) && line.size() > at + 7 && line[at + 4] == '-' && digitsAt(line, at + 5, 2)
        && line[at + 7] == '-')
        return true;
    if (line.rfind("time=", 0) == 0 || line.rfind("level=", 0) == 0)
        return true;
    const char level = line.empty() ? '\0' : line[0];
    return line.size() > 13 && (level == 'I' || level == 'W' || level == 'E' || level == 'F') && digitsAt(line, 1, 4)
        && line[5] == ' ' && digitsAt(line, 6, 2) && line[8] == ':';
}

} // namespace

bool parseSymptomWord(const std::string& written, std::string& text, bool& prefix)
{
    prefix = !written.empty() && written.back() == '*';
    text = prefix ? written.substr(0, written.size() - 1) : written;
    for (auto& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text.size() >= 3 && text.find('*') == std::string::npos;
}

SymptomIndex::SymptomIndex(const std::vector<DiagnosisRule>& rules)
{
    std::map<std::pair<std::string, bool>, std::uint32_t> ids;
    auto idOf = [&](const std::string& written) {
        Word w;
        parseSymptomWord(written, w.text, w.prefix); // the rules reader checked the form
        const auto key = std::make_pair(w.text, w.prefix);
        const auto it = ids.find(key);
        if (it != ids.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_words.size());
        m_words.push_back(w);
        ids.emplace(key, id);
        return id;
    };
    for (std::size_t r = 0; r < rules.size(); ++r) {
        for (std::size_t s = 0; s < rules[r].symptoms.size(); ++s) {
            SetRef ref {r, s, {}, {}};
            for (const auto& group : rules[r].symptoms[s].words) {
                auto& g = ref.groups.emplace_back();
                for (const auto& w : group)
                    g.push_back(idOf(w));
            }
            for (const auto& w : rules[r].symptoms[s].none)
                ref.none.push_back(idOf(w));
            m_sets.push_back(std::move(ref));
        }
    }
    std::vector<std::string> texts;
    for (const auto& w : m_words)
        texts.push_back(w.text);
    m_set = LiteralSet(texts);
}

bool SymptomIndex::boundedAt(const Word& w, const std::string& line, std::size_t end) const
{
    const std::size_t start = end - w.text.size();
    if (isWordChar(w.text.front()) && start > 0 && isWordChar(line[start - 1]))
        return false;
    if (!w.prefix && isWordChar(w.text.back()) && end < line.size() && isWordChar(line[end]))
        return false;
    return true;
}

std::vector<SymptomIndex::Hit> SymptomIndex::find(const NormalizedText& text) const
{
    std::vector<Hit> out;
    if (m_sets.empty())
        return out;
    std::vector<char> done(m_sets.size(), 0);
    std::vector<char> present(m_words.size(), 0);
    std::vector<std::uint32_t> touched;
    const auto& lines = text.lines();
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const std::string& line = lines[li].display;
        if (writtenByProgram(line))
            continue;
        m_set.scan(line, [&](std::size_t word, std::size_t end) {
            if (!present[word] && boundedAt(m_words[word], line, end)) {
                present[word] = 1;
                touched.push_back(static_cast<std::uint32_t>(word));
            }
        });
        if (touched.empty())
            continue;
        for (std::size_t k = 0; k < m_sets.size(); ++k) {
            if (done[k])
                continue;
            const auto& ref = m_sets[k];
            if (std::any_of(ref.none.begin(), ref.none.end(), [&](std::uint32_t w) { return present[w] != 0; }))
                continue;
            std::vector<std::string> words;
            for (const auto& g : ref.groups) {
                const auto it = std::find_if(g.begin(), g.end(), [&](std::uint32_t w) { return present[w] != 0; });
                if (it == g.end())
                    break;
                words.push_back(m_words[*it].text);
            }
            if (words.size() != ref.groups.size())
                continue;
            done[k] = 1;
            out.push_back({ref.rule, ref.set, li, std::move(words)});
        }
        for (auto w : touched)
            present[w] = 0;
        touched.clear();
    }
    std::stable_sort(out.begin(), out.end(), [](const Hit& a, const Hit& b) { return a.rule < b.rule; });
    return out;
}

} // namespace stackscope
