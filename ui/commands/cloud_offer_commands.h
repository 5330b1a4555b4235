#pragma once
/// \file
/// Undoable changes to the cloud offers: add one, correct one, remove several, import a file. Like the price commands,
/// they change the database through core and tell the session; undo and redo restore the
/// same offers under the same ids.

#include "prices/cloud_offer.h"

#include <QUndoCommand>

#include <vector>

namespace advisor::ui {

class Session;

class AddCloudOfferCommand : public QUndoCommand {
public:
    /// Throws InputError naming every bad field (nothing stored, nothing pushed).
    static AddCloudOfferCommand* create(Session& session, const CloudOfferInput& in);
    void undo() override;
    void redo() override;
    std::int64_t offerId() const { return offer_.id; }

private:
    AddCloudOfferCommand(Session& session, CloudOffer stored);
    Session& session_;
    CloudOffer offer_;
    bool first_ = true;
};

/// Corrects an offer in place (same id); undo writes the old offer back.
class EditCloudOfferCommand : public QUndoCommand {
public:
    /// Throws InputError naming every bad field (nothing changed, nothing pushed).
    static EditCloudOfferCommand* create(Session& session, std::int64_t id, const CloudOfferInput& in);
    void undo() override;
    void redo() override;

private:
    EditCloudOfferCommand(Session& session, CloudOffer before, CloudOffer after);
    Session& session_;
    CloudOffer before_;
    CloudOffer after_;
    bool first_ = true;
};

class RemoveCloudOffersCommand : public QUndoCommand {
public:
    RemoveCloudOffersCommand(Session& session, std::vector<std::int64_t> ids);
    void undo() override;
    void redo() override;

private:
    Session& session_;
    std::vector<std::int64_t> ids_;
    std::vector<CloudOffer> removed_;
};

/// Pushed after an import has already been applied: undo removes its offers, redo puts them back.
class ImportCloudOffersCommand : public QUndoCommand {
public:
    ImportCloudOffersCommand(Session& session, std::vector<std::int64_t> addedIds, const QString& file);
    void undo() override;
    void redo() override;

private:
    Session& session_;
    std::vector<std::int64_t> ids_;
    std::vector<CloudOffer> removed_;
    bool first_ = true;
};

} // namespace advisor::ui
